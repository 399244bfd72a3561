import { describe, expect, it } from 'vitest';
import { createRateLimiter, memoryRateLimits } from './rate-limiter.js';

describe('rate limiter', () => {
  it('counts hits in a sliding window and forgets old ones', () => {
    const limiter = createRateLimiter(10_000);
    const start = 1_000_000;
    expect(limiter.hit('a', start)).toBe(1);
    expect(limiter.hit('a', start + 5_000)).toBe(2);
    expect(limiter.count('a', start + 9_000)).toBe(2);
    expect(limiter.count('a', start + 12_000)).toBe(1);
    expect(limiter.count('a', start + 20_000)).toBe(0);
    expect(limiter.count('b', start)).toBe(0);
  });

  it('resets a key and stays bounded under many keys', () => {
    const limiter = createRateLimiter(10_000, 3);
    for (const key of ['a', 'b', 'c', 'd']) limiter.hit(key, 0);
    expect(limiter.count('a', 0)).toBe(0);
    expect(limiter.count('d', 0)).toBe(1);
    limiter.reset('d');
    expect(limiter.count('d', 0)).toBe(0);
  });
});

describe('in-process rate limits', () => {
  it('gives callers of the same limit one count', async () => {
    const limits = memoryRateLimits();
    await limits('smtp-abuse', 60_000).hit('1.2.3.4');
    expect(await limits('smtp-abuse', 60_000).hit('1.2.3.4')).toBe(2);
    expect(await limits('other', 60_000).count('1.2.3.4')).toBe(0);
  });
});
