import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { t } from './i18n';

/**
 * Bridge from code outside React (HTTP client, query cache, start-up) to the app's antd message and
 * notification instances (components/feedback), which carry the locale, theme and the durations
 * (messages 3 s, notifications 4.5 s). Those instances are loaded on the first call (most first
 * visits show no message at all); calls made until they are there (the start-up variables call,
 * before the root view mounts) wait in a queue and are shown once they are.
 */
interface FeedbackApi {
  message: Pick<MessageInstance, 'error' | 'success' | 'info'>;
  notification: Pick<NotificationInstance, 'error' | 'info'>;
}

let current: FeedbackApi | null = null;
const pending: Array<(api: FeedbackApi) => void> = [];
let requested = false;
const requestListeners = new Set<() => void>();

function withFeedback(show: (api: FeedbackApi) => void): void {
  if (current) {
    show(current);
    return;
  }
  pending.push(show);
  if (!requested) {
    requested = true;
    for (const listener of requestListeners) listener();
  }
}

/** Whether something asked to be shown yet: the root view loads the instances once it has. */
export function isFeedbackRequested(): boolean {
  return requested;
}

/** Calls `listener` when the first feedback is asked for (for useSyncExternalStore). */
export function subscribeFeedbackRequest(listener: () => void): () => void {
  requestListeners.add(listener);
  return () => requestListeners.delete(listener);
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

/** A short notice; `key` lets a later notice with the same key replace it instead of stacking. */
export function showInfoMessage(text: string, key?: string): void {
  withFeedback((api) => {
    api.message.info({ content: text, key });
  });
}

export function showSuccessMessage(text: string): void {
  withFeedback((api) => {
    api.message.success(text);
  });
}

export function showErrorNotification(description: string, title?: string): void {
  withFeedback((api) => {
    api.notification.error({ title: title ?? t('出错了'), description });
  });
}

/** A notification that stays its 4.5 s (a new order, say); `key` replaces an earlier one with it. */
export function showInfoNotification(title: string, description: string, key?: string): void {
  withFeedback((api) => {
    api.notification.info({ title, description, key });
  });
}
