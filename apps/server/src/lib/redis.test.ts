import { describe, expect, it } from 'vitest';
import { reconnectDelay } from './redis.js';
import { redisRateKey } from './redis-rate-limits.js';

describe('Redis helpers', () => {
  it('waits longer after each failed reconnection, up to ten seconds', () => {
    const delays = Array.from({ length: 12 }, (_, index) => reconnectDelay(index + 1));
    expect(delays.slice(0, 4)).toEqual([250, 500, 1000, 2000]);
    for (let index = 1; index < delays.length; index++)
      expect(delays[index]).toBeGreaterThanOrEqual(delays[index - 1] ?? 0);
    expect(Math.max(...delays)).toBe(10_000);
    expect(reconnectDelay(10_000)).toBe(10_000);
  });

  it('names a counter under youju: without the key in clear, one name per limit and key', () => {
    const key = redisRateKey('login-account-ip:15', 'alice\n203.0.113.9');
    expect(key).toMatch(/^youju:rate:login-account-ip:15:[A-Za-z0-9_-]{22}$/);
    expect(key).not.toContain('alice');
    expect(key).not.toContain('203.0.113.9');
    expect(redisRateKey('login-account-ip:15', 'alice\n203.0.113.9')).toBe(key);
    expect(redisRateKey('login-account-ip:15', 'alice\n203.0.113.8')).not.toBe(key);
    expect(redisRateKey('login-ip:15', 'alice\n203.0.113.9')).not.toBe(key);
    expect(redisRateKey('x', 'k'.repeat(100_000)).length).toBeLessThan(40);
  });
});
