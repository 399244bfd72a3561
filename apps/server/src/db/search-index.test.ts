import { describe, expect, it } from 'vitest';
import { INDEX_DEFER_MAX_MS, INDEX_QUIET_MS, indexingWaits } from './search-index.js';

describe('indexingWaits (the store worker indexes between bursts)', () => {
  const now = 1_000_000;

  it('indexes at once when no mail is arriving', () => {
    expect(
      indexingWaits({ storing: 0, lastStoredAt: now - INDEX_QUIET_MS, unindexedSince: now - 500, now }),
    ).toBe(false);
    expect(indexingWaits({ storing: 0, lastStoredAt: 0, unindexedSince: null, now })).toBe(false);
  });

  it('waits while a delivery is in progress or one just ended', () => {
    expect(indexingWaits({ storing: 3, lastStoredAt: now - 5_000, unindexedSince: now - 50, now })).toBe(
      true,
    );
    expect(indexingWaits({ storing: 0, lastStoredAt: now - 10, unindexedSince: now - 50, now })).toBe(true);
  });

  it('never lets the oldest waiting message wait longer than the bound under a steady stream', () => {
    expect(
      indexingWaits({ storing: 5, lastStoredAt: now, unindexedSince: now - INDEX_DEFER_MAX_MS + 1, now }),
    ).toBe(true);
    expect(
      indexingWaits({ storing: 5, lastStoredAt: now, unindexedSince: now - INDEX_DEFER_MAX_MS, now }),
    ).toBe(false);
  });

  it('does not wait for mail it did not store (other writers): nothing of its own is waiting', () => {
    expect(indexingWaits({ storing: 5, lastStoredAt: now, unindexedSince: null, now })).toBe(false);
  });
});
