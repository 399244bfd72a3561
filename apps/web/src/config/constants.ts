/** Business constants that shape the interface: progress bar and feedback timings, the default site name. */
import { t } from '../lib/i18n';

/** Progress indicator shown while a navigation runs. */
export const progressOptions = { minimum: 0.1, speed: 400, trickleSpeed: 200 } as const;

/** antd `App` feedback: messages stay 3 s, notifications 4.5 s at 24 px from the top. */
export const messageOptions = { duration: 3 } as const;
export const notificationOptions = { duration: 4.5, top: 24 } as const;

/**
 * The site's name as shown: the operator's own, or, while the site has not sent one or still has the
 * built-in 邮局 (the contract's default, never chosen by anyone), that default in the interface's
 * language. A function: read at render, in the language chosen by then.
 */
export function siteNameShown(name: string | null | undefined): string {
  return !name || name === BUILT_IN_SITE_NAME ? t('邮局') : name;
}

/**
 * DEFAULT_SYSTEM_SETTINGS.siteName of the contract, written out: the contract's settings module
 * builds TypeBox schemas, which the client does not bundle. A stored value, the same in every language.
 */
const BUILT_IN_SITE_NAME = '邮局'; // i18n-exempt
