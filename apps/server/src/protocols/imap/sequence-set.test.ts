import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseSequenceSet,
  resolveSequenceSet,
  type SequenceRange,
  sequenceSetMatcher,
} from './sequence-set.js';

describe('sequenceSetMatcher', () => {
  it('agrees with testing every resolved range, for any set and number', () => {
    const bound = fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constant('*' as const));
    fc.assert(
      fc.property(
        fc.array(fc.record({ from: bound, to: bound }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 70 }),
        (set: SequenceRange[], largest, number) => {
          const naive = resolveSequenceSet(set, largest).some(([from, to]) => number >= from && number <= to);
          expect(sequenceSetMatcher(set, largest)(number)).toBe(naive);
        },
      ),
    );
  });

  it('answers a 10,000-range set for each of 100,000 numbers (resolved once, searched in log time)', () => {
    const text = Array.from({ length: 10_000 }, (_, index) => String(index * 2 + 1)).join(',');
    const set = parseSequenceSet(text);
    if (set === '$') throw new Error('not a set');
    const has = sequenceSetMatcher(set, 100_000);
    let count = 0;
    for (let number = 1; number <= 100_000; number++) if (has(number)) count++;
    expect(count).toBe(10_000);
    expect(has(19_999)).toBe(true);
    expect(has(20_000)).toBe(false);
  });
});
