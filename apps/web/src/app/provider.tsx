import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { AppComponentsProvider } from '../components/app-components';
import { FeedbackBridge } from '../components/feedback/feedback-bridge';
import { messageOptions, notificationOptions } from '../config/constants';
import '../lib/dates';
import { queryClient } from '../lib/query-client';

/**
 * Root view providers: Chinese interface and date locale, antd feedback (messages 3 s,
 * notifications 4.5 s at 24 px), the query client and the app-wide components.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN}>
      <AntdApp message={messageOptions} notification={notificationOptions}>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <AppComponentsProvider>{children}</AppComponentsProvider>
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
