import { message, notification } from 'antd';
import { useEffect } from 'react';
import { messageOptions, notificationOptions } from '../../config/constants';
import { registerFeedback } from '../../lib/feedback';
import { AntdProvider } from '../antd-provider';

/**
 * The app's antd message and notification instances (messages 3 s, notifications 4.5 s at 24 px),
 * rendered inside antd's frame (AntdProvider) so that they carry the locale and theme, and handed to
 * code outside React (lib/feedback.ts).
 */
function FeedbackHolders() {
  const [messageApi, messageHolder] = message.useMessage(messageOptions);
  const [notificationApi, notificationHolder] = notification.useNotification(notificationOptions);
  useEffect(() => {
    registerFeedback({ message: messageApi, notification: notificationApi });
    return () => registerFeedback(null);
  }, [messageApi, notificationApi]);
  return (
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
}

export function FeedbackBridge() {
  return (
    <AntdProvider>
      <FeedbackHolders />
    </AntdProvider>
  );
}
