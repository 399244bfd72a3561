import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatTime } from './dates';

// Local times, so that the expectations hold in any time zone the tests run in.
const at = (text: string) => new Date(text).toISOString();

describe('formatTime', () => {
  afterEach(() => vi.useRealTimers());

  it('writes the long Chinese form by default, and the fallback for nothing or nonsense', () => {
    expect(formatTime(at('2025-03-01T14:05:09'))).toBe('2025年3月1日 14:05');
    expect(formatTime(null)).toBe('—');
    expect(formatTime('kaputt', { fallback: '从未登录' })).toBe('从未登录');
  });

  it('keeps the forms of the reading pane, the sent mail and the quoted original', () => {
    const time = at('2025-03-01T14:05:09');
    expect(formatTime(time, { style: 'reader' })).toBe('2025年3月1日 星期六 14:05');
    expect(formatTime(time, { style: 'dateTimeSeconds' })).toBe('2025-03-01 14:05:09');
    expect(formatTime(time, { style: 'dateTime' })).toBe('2025-03-01 14:05');
    expect(formatTime(time, { style: 'monthDayTime' })).toBe('03-01 14:05:09');
    expect(formatTime(time, { style: 'clock' })).toBe('14:05');
    expect(formatTime(time, { style: 'quote' })).toBe(
      new Date(time).toLocaleString('zh-CN', { hour12: false }),
    );
  });

  it('writes the message list relative to today', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-15T10:00:00'));
    expect(formatTime(at('2025-06-15T08:30:00'), { style: 'list' })).toBe('08:30');
    expect(formatTime(at('2025-03-01T08:30:00'), { style: 'list' })).toBe('3月1日');
    expect(formatTime(at('2024-03-01T08:30:00'), { style: 'list' })).toBe('2024年3月1日');
  });
});
