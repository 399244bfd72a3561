/** Business constants that shape the interface: progress bar and feedback timings, the default site name. */
import { t } from '../lib/i18n';

/** Progress indicator shown while a navigation runs. */
export const progressOptions = { minimum: 0.1, speed: 400, trickleSpeed: 200 } as const;

/** antd `App` feedback: messages stay 3 s, notifications 4.5 s at 24 px from the top. */
export const messageOptions = { duration: 3 } as const;
export const notificationOptions = { duration: 4.5, top: 24 } as const;

/** Shown when the site has not sent its name yet (a function: read in the interface's language at render). */
export function defaultSiteName(): string {
  return t('邮局');
}
