import { App } from 'antd';
import { useEffect } from 'react';
import { registerFeedback } from '../../lib/feedback';

/** Hands the antd `App` message and notification instances to code outside React. */
export function FeedbackBridge() {
  const { message, notification } = App.useApp();
  useEffect(() => {
    registerFeedback({ message, notification });
    return () => registerFeedback(null);
  }, [message, notification]);
  return null;
}
