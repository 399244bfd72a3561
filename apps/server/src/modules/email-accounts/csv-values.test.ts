import { describe, expect, it } from 'vitest';
import { formatCsvTime, formatMegabytes, parseCsvTime, parseMegabytes } from './csv-values.js';

describe('mailbox CSV values', () => {
  it('reads and writes sizes in MB', () => {
    expect(parseMegabytes('1024')).toBe(1024 ** 3);
    expect(parseMegabytes('0.5')).toBe(512 * 1024);
    expect(parseMegabytes('2 GB')).toBe(2 * 1024 ** 3);
    expect(parseMegabytes('-1')).toBeNull();
    expect(parseMegabytes('很多')).toBeNull();
    expect(formatMegabytes(1024 ** 3)).toBe('1024');
    expect(formatMegabytes(1536 * 1024)).toBe('1.50');
  });

  it('reads times in the operator zone and refuses impossible dates', () => {
    const beijing = 480;
    expect(parseCsvTime('2026-12-31 08:00', beijing)).toBe(Date.parse('2026-12-31T00:00:00Z'));
    expect(parseCsvTime('2026/1/2', beijing)).toBe(Date.parse('2026-01-02T15:59:59Z'));
    expect(parseCsvTime('2026-12-31T00:00:00Z', beijing)).toBe(Date.parse('2026-12-31T00:00:00Z'));
    expect(parseCsvTime('2026-02-31', beijing)).toBeUndefined();
    expect(parseCsvTime('明天', beijing)).toBeUndefined();
    expect(formatCsvTime(Date.parse('2026-12-31T00:00:00Z'), beijing)).toBe('2026-12-31 08:00');
  });
});
