import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createScopeSizes } from '../../src/db/repositories/message-repo.js';

/**
 * The scope sizes a search keeps for its estimated totals (message-repo.ts): a size serves for its
 * time only, and the cache holds a bounded number of scopes whatever the callers ask for.
 */
describe('scope sizes counted lately', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives a size back until it is older than its time, then counts again', () => {
    const sizes = createScopeSizes(1_000, 10);
    expect(sizes.get('owner 1')).toBeUndefined();
    sizes.set('owner 1', 12_000);
    expect(sizes.get('owner 1')).toBe(12_000);
    expect(sizes.get('owner 2')).toBeUndefined();
    vi.advanceTimersByTime(1_000);
    expect(sizes.get('owner 1')).toBe(12_000);
    vi.advanceTimersByTime(1);
    expect(sizes.get('owner 1')).toBeUndefined();
    // Counted anew: the new size, for a full time again.
    sizes.set('owner 1', 12_500);
    vi.advanceTimersByTime(999);
    expect(sizes.get('owner 1')).toBe(12_500);
  });

  it('keeps at most its number of scopes, dropping the one counted longest ago', () => {
    const sizes = createScopeSizes(60_000, 3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) sizes.set(key, i);
    // Counted again: now the newest.
    sizes.set('a', 10);
    sizes.set('d', 3);
    expect(sizes.get('b')).toBeUndefined();
    expect(sizes.get('a')).toBe(10);
    expect(sizes.get('c')).toBe(2);
    expect(sizes.get('d')).toBe(3);
    // A flood of scopes (every filter combination of every owner) never grows it past its bound.
    for (let i = 0; i < 1_000; i++) sizes.set(`flood ${i}`, i);
    expect(['a', 'c', 'd'].map((key) => sizes.get(key))).toEqual([undefined, undefined, undefined]);
    expect(sizes.get('flood 999')).toBe(999);
    expect(sizes.get('flood 996')).toBeUndefined();
  });
});
