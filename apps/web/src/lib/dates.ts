import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { currentLocale, t } from './i18n';

// The interface's date locale is Simplified Chinese (antd's date pickers read it too).
dayjs.extend(localizedFormat);
dayjs.locale('zh-cn');

/**
 * How times are written. Every table, list and reader shows one form (`short`), with the full time
 * on hover (`full`, see components/time-text.tsx):
 * - `short`: 14:05 today, 昨天 14:05 yesterday, 03-01 14:05 this year, 2024-03-01 before;
 * - `full`: 2025-03-01 14:05:09;
 * - `quote`: 2025/3/1 14:05:09, the browser's form for the interface's language, written into the text of a reply above
 *   the quoted message (it stays in the mail, so it is never relative).
 */
export type TimeStyle = 'short' | 'full' | 'quote';

function shortForm(time: dayjs.Dayjs): string {
  const now = dayjs();
  if (time.isSame(now, 'day')) return time.format('HH:mm');
  // In brackets: dayjs would read the letters of an English word as format tokens.
  if (time.isSame(now.subtract(1, 'day'), 'day')) return time.format(`[${t('昨天')}] HH:mm`);
  if (time.isSame(now, 'year')) return time.format('MM-DD HH:mm');
  return time.format('YYYY-MM-DD');
}

export interface TimeFormatOptions {
  style?: TimeStyle;
  /** shown when there is no time or it does not parse; `—` unless given */
  fallback?: string;
}

/** A time from the API in the given style (see `TimeStyle`), `short` unless told otherwise. */
export function formatTime(
  value: string | null | undefined,
  { style = 'short', fallback = '—' }: TimeFormatOptions = {},
): string {
  if (!value) return fallback;
  const time = dayjs(value);
  if (!time.isValid()) return fallback;
  if (style === 'quote') return time.toDate().toLocaleString(currentLocale(), { hour12: false });
  if (style === 'full') return time.format('YYYY-MM-DD HH:mm:ss');
  return shortForm(time);
}

/** Minutes east of UTC of this browser, so the server writes and reads times as the operator sees them. */
export function utcOffsetMinutes(): number {
  return -new Date().getTimezoneOffset();
}

export { dayjs };
