import { message, notification } from 'antd';
import { useEffect } from 'react';
import { messageOptions, notificationOptions } from '../../config/constants';
import { registerFeedback } from '../../lib/feedback';

/**
 * The app's antd message and notification instances (messages 3 s, notifications 4.5 s at 24 px),
 * rendered inside the root ConfigProvider so that they carry its locale and theme, and handed to
 * code outside React (lib/feedback.ts).
 */
export function FeedbackBridge() {
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
