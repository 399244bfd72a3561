import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';

/**
 * Bridge from code outside React (HTTP client, query cache, start-up) to the antd `App` feedback
 * instances, which carry the locale, theme and the durations (messages 3 s, notifications 4.5 s). Calls made before the
 * root view mounts (the start-up variables call) wait in a queue and are shown once it does.
 */
interface FeedbackApi {
  message: Pick<MessageInstance, 'error' | 'success'>;
  notification: Pick<NotificationInstance, 'error'>;
}

let current: FeedbackApi | null = null;
const pending: Array<(api: FeedbackApi) => void> = [];

function withFeedback(show: (api: FeedbackApi) => void): void {
  if (current) show(current);
  else pending.push(show);
}

export function registerFeedback(api: FeedbackApi | null): void {
  current = api;
  if (!api) return;
  for (const show of pending.splice(0)) show(api);
}

/** A short error toast; the same text shown twice at once collapses into one. */
export function showErrorMessage(text: string): void {
  withFeedback((api) => {
    api.message.error({ content: text, key: text });
  });
}

export function showSuccessMessage(text: string): void {
  withFeedback((api) => {
    api.message.success(text);
  });
}

export function showErrorNotification(description: string, title = '出错了'): void {
  withFeedback((api) => {
    api.notification.error({ title, description });
  });
}
