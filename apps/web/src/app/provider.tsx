import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { AppComponentsProvider } from '../components/app-components';
import { antdTheme } from '../config/theme';
import '../lib/dates';
import { isFeedbackRequested, subscribeFeedbackRequest } from '../lib/feedback';
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
 * Root view providers: Chinese interface and date locale, the antd theme, feedback (messages 3 s,
 * notifications 4.5 s at 24 px), the query client and the app-wide components.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={antdTheme}>
      <Feedback />
      <QueryClientProvider client={queryClient}>
        <AppComponentsProvider>
          <TextFrame>{children}</TextFrame>
        </AppComponentsProvider>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
