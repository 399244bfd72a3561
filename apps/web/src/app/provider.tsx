import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { AppComponentsProvider } from '../components/app-components';
import '../lib/dates';
import { isFeedbackRequested, subscribeFeedbackRequest } from '../lib/feedback';
import { useLocale } from '../lib/i18n';
import { queryClient } from '../lib/query-client';

const FeedbackBridge = lazy(() =>
  import('../components/feedback/feedback-bridge').then((module) => ({ default: module.FeedbackBridge })),
);

/** antd's message and notification, from the first time something is to be shown (lib/feedback.ts). */
function Feedback() {
  const requested = useSyncExternalStore(subscribeFeedbackRequest, isFeedbackRequested);
  return requested ? (
    <Suspense fallback={null}>
      <FeedbackBridge />
    </Suspense>
  ) : null;
}

/**
 * The text style antd's `App` gives a page (the default theme's colorText, fontSize, lineHeight and
 * fontFamily: `.app-text` in global.css), without `App` itself, and without reading antd's theme:
 * /home renders without antd's runtime.
 */
function TextFrame({ children }: { children: ReactNode }) {
  return <div className="app-text">{children}</div>;
}

/**
 * Root view providers: the interface and date locale (Chinese unless English was chosen, lib/i18n),
 * feedback (messages 3 s, notifications 4.5 s at 24 px), the query client and the app-wide
 * components. antd's frame (locale, theme) is not here but around the screens that use antd
 * (components/antd-provider.tsx): /home draws itself without antd, and its first script has none.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const locale = useLocale();
  return (
    <>
      <Feedback />
      <QueryClientProvider client={queryClient}>
        <AppComponentsProvider>
          {/* Keyed by the language: a switch renders every screen again, in the new one. */}
          <TextFrame key={locale}>{children}</TextFrame>
        </AppComponentsProvider>
      </QueryClientProvider>
    </>
  );
}
