import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import zhCN from 'antd/locale/zh_CN';
import { lazy, type ReactNode, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { AppComponentsProvider } from '../components/app-components';
import { antdTheme } from '../config/theme';
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
 * The text style antd's `App` gives a page, without `App` itself: it would bring the modal dialogs
 * into the first script for the one screen that asks for a confirmation.
 */
function TextFrame({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div
      style={{
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        fontFamily: token.fontFamily,
      }}
    >
      {children}
    </div>
  );
}

/**
 * Root view providers: the interface and date locale (Chinese unless English was chosen, lib/i18n), the antd theme, feedback (messages 3 s,
 * notifications 4.5 s at 24 px), the query client and the app-wide components.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const locale = useLocale();
  // antd's English texts load with the first switch to English (a Chinese visitor never needs them).
  const [antdEnglish, setAntdEnglish] = useState<AntdLocale | null>(null);
  useEffect(() => {
    if (locale === 'en' && !antdEnglish)
      void import('antd/locale/en_US').then((module) => setAntdEnglish(module.default));
  }, [locale, antdEnglish]);
  return (
    <ConfigProvider locale={locale === 'en' && antdEnglish ? antdEnglish : zhCN} theme={antdTheme}>
      <Feedback />
      <QueryClientProvider client={queryClient}>
        <AppComponentsProvider>
          {/* Keyed by the language: a switch renders every screen again, in the new one. */}
          <TextFrame key={locale}>{children}</TextFrame>
        </AppComponentsProvider>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
