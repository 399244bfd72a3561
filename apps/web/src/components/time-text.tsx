import { formatTime } from '../lib/dates';

interface TimeTextProps {
  /** an ISO time from the API */
  value: string | null | undefined;
  /** shown when there is no time; `—` unless given */
  fallback?: string;
  'data-testid'?: string;
}

/** A time in the interface's one short form, the full time on hover (a `<time>` element). */
export function TimeText({ value, fallback = '—', 'data-testid': testId }: TimeTextProps) {
  const short = formatTime(value, { fallback });
  const full = formatTime(value, { style: 'full', fallback: '' });
  if (!full) return <span data-testid={testId}>{fallback}</span>;
  return (
    <time dateTime={value ?? undefined} title={full} data-testid={testId}>
      {short}
    </time>
  );
}

/** For table columns: `render: renderTime()` or `renderTime('从未登录')`. */
export function renderTime(fallback?: string) {
  return (value: string | null | undefined) => <TimeText value={value} fallback={fallback} />;
}
