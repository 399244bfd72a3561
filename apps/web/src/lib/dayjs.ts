import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import localizedFormat from 'dayjs/plugin/localizedFormat';

// Seed section 1: the date locale is Simplified Chinese.
dayjs.extend(localizedFormat);
dayjs.locale('zh-cn');

/** A time from the API in the Chinese long form (2025年3月1日 14:05), or the fallback when absent. */
export function formatTime(value: string | null | undefined, fallback = '—'): string {
  if (!value) return fallback;
  const time = dayjs(value);
  return time.isValid() ? time.format('LL HH:mm') : fallback;
}

export { dayjs };
