import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rfc5322Date } from './date-time.js';

describe('rfc5322Date (RFC 5322 section 3.3)', () => {
  it('writes date-time in UTC', () => {
    expect(rfc5322Date(Date.UTC(2025, 2, 4, 5, 6, 7))).toBe('Tue, 04 Mar 2025 05:06:07 +0000');
  });

  it('format → parse gives the time back, to the second', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59) }),
        (time) => {
          const text = rfc5322Date(time);
          expect(text).toMatch(
            /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d \+0000$/,
          );
          expect(Date.parse(text)).toBe(time - (((time % 1000) + 1000) % 1000));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
