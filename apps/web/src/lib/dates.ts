import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import localizedFormat from 'dayjs/plugin/localizedFormat';

// The interface's date locale is Simplified Chinese (antd's date pickers read it too).
dayjs.extend(localizedFormat);
dayjs.locale('zh-cn');

/**
 * How times are written. Screens have shown times in different forms since they were made, and each
 * keeps its own; the forms live together here so that a new screen picks one of them.
 * - `long`: 2025年3月1日 14:05 (tables, details, expiry notices)
 * - `reader`: 2025年3月1日 星期六 14:05 (the reading pane)
 * - `list`: 14:05 today, 3月1日 this year, 2024年3月1日 before (the message list)
 * - `quote`: 2025/3/1 14:05:09, the browser's zh-CN form (the line above a quoted message)
 * - `dateTimeSeconds`: 2025-03-01 14:05:09 (a sent message's details)
 * - `dateTime`: 2025-03-01 14:05 (the sent list)
 * - `monthDayTime`: 03-01 14:05:09 (when a delivery is retried)
 * - `clock`: 14:05
 */
export type TimeStyle =
  | 'long'
  | 'reader'
  | 'list'
  | 'quote'
  | 'dateTimeSeconds'
  | 'dateTime'
  | 'monthDayTime'
  | 'clock';

const patterns: Record<Exclude<TimeStyle, 'list' | 'quote'>, string> = {
  long: 'LL HH:mm',
  reader: 'YYYY年M月D日 dddd HH:mm',
  dateTimeSeconds: 'YYYY-MM-DD HH:mm:ss',
  dateTime: 'YYYY-MM-DD HH:mm',
  monthDayTime: 'MM-DD HH:mm:ss',
  clock: 'HH:mm',
};

function listForm(time: dayjs.Dayjs): string {
  const now = dayjs();
  if (time.isSame(now, 'day')) return time.format('HH:mm');
  if (time.isSame(now, 'year')) return time.format('M月D日');
  return time.format('YYYY年M月D日');
}

export interface TimeFormatOptions {
  style?: TimeStyle;
  /** shown when there is no time or it does not parse; `—` unless given */
  fallback?: string;
}

/** A time from the API in the given style (see `TimeStyle`), `long` unless told otherwise. */
export function formatTime(
  value: string | null | undefined,
  { style = 'long', fallback = '—' }: TimeFormatOptions = {},
): string {
  if (!value) return fallback;
  const time = dayjs(value);
  if (!time.isValid()) return fallback;
  if (style === 'list') return listForm(time);
  if (style === 'quote') return time.toDate().toLocaleString('zh-CN', { hour12: false });
  return time.format(patterns[style]);
}

/** Minutes east of UTC of this browser, so the server writes and reads times as the operator sees them. */
export function utcOffsetMinutes(): number {
  return -new Date().getTimezoneOffset();
}

export { dayjs };
