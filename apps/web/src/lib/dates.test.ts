import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatTime } from './dates';
import { setLocale } from './i18n';

// Local times, so that the expectations hold in any time zone the tests run in.
const at = (text: string) => new Date(text).toISOString();

describe('formatTime', () => {
  afterEach(() => vi.useRealTimers());

  it('writes one short form relative to today: time, 昨天, month-day, or the date', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-15T10:00:00'));
    expect(formatTime(at('2025-06-15T08:30:00'))).toBe('08:30');
    expect(formatTime(at('2025-06-14T23:59:00'))).toBe('昨天 23:59');
    expect(formatTime(at('2025-06-14T00:00:00'))).toBe('昨天 00:00');
    expect(formatTime(at('2025-06-13T23:59:00'))).toBe('06-13 23:59');
    expect(formatTime(at('2025-01-01T00:05:00'))).toBe('01-01 00:05');
    expect(formatTime(at('2024-12-31T23:00:00'))).toBe('2024-12-31');
    // A future time (an expiry) this year reads like a past one of this year.
    expect(formatTime(at('2025-09-01T12:00:00'))).toBe('09-01 12:00');
    expect(formatTime(at('2026-09-01T12:00:00'))).toBe('2026-09-01');
  });

  it('writes yesterday across a year boundary', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T09:00:00'));
    expect(formatTime(at('2025-12-31T21:15:00'))).toBe('昨天 21:15');
    expect(formatTime(at('2025-12-30T21:15:00'))).toBe('2025-12-30');
  });

  it('writes the full time for hovering and the quote form, and the fallback for nothing or nonsense', () => {
    const time = at('2025-03-01T14:05:09');
    expect(formatTime(time, { style: 'full' })).toBe('2025-03-01 14:05:09');
    expect(formatTime(time, { style: 'quote' })).toBe(
      new Date(time).toLocaleString('zh-CN', { hour12: false }),
    );
    expect(formatTime(null)).toBe('—');
    expect(formatTime('kaputt', { fallback: '从未登录' })).toBe('从未登录');
  });

  it('writes 昨天 in the interface language, the format letters of the word left alone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-15T10:00:00'));
    await setLocale('en');
    try {
      expect(formatTime(at('2025-06-14T23:59:00'))).toBe('Yesterday 23:59');
    } finally {
      await setLocale('zh-CN');
    }
    expect(formatTime(at('2025-06-14T23:59:00'))).toBe('昨天 23:59');
  });
});
