import { createHash } from 'node:crypto';
import type { RateLimit, RateLimits } from './rate-limiter.js';
import type { RedisConnection, RedisLog } from './redis.js';

/**
 * One limit's counts for one key: a hash of bucket number → count (buckets of a tenth of the
 * window, as the in-process and database limiters count). Each script runs atomically in Redis, so
 * the increment and the total it returns are one step: of a parallel burst against a limit of n,
 * exactly n see a total ≤ n, across every process.
 */

/** KEYS[1] the counter; ARGV bucket, oldest bucket still outside the window, time to live (ms). */
const HIT = `
local total = 0
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if tonumber(fields[i]) <= tonumber(ARGV[2]) then
    redis.call('HDEL', KEYS[1], fields[i])
  else
    total = total + tonumber(fields[i + 1])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return total
`;

/** KEYS[1] the counter; ARGV oldest bucket outside the window. Takes one from the newest live bucket. */
const RELEASE = `
local newest = nil
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local bucket = tonumber(fields[i])
  if bucket > tonumber(ARGV[1]) and (newest == nil or bucket > newest) then newest = bucket end
end
if newest == nil then return 0 end
if redis.call('HINCRBY', KEYS[1], tostring(newest), -1) <= 0 then
  redis.call('HDEL', KEYS[1], tostring(newest))
end
return 1
`;

/** After Redis failed a count, how long the database counts before Redis is asked again. */
const RETRY_AFTER_FAILURE_MS = 5_000;

/** The Redis key of one limit and key: `youju:rate:<name>:<hash>`. */
export function redisRateKey(name: string, key: string): string {
  // Keys are addresses, account names, API key ids: hashed, so Redis holds none of them in clear
  // and a long key cannot make a long Redis key.
  const digest = createHash('sha256').update(key).digest('base64url').slice(0, 22);
  return `youju:rate:${name.slice(0, 64)}:${digest}`;
}

/**
 * Rate limits counted in Redis (`REDIS_URL`), so every process sharing it counts together.
 *
 * Fail-safe choice: while Redis cannot be reached (down, restarting, not answering within the
 * command timeout), each limit counts in `fallback`, the database's `rate_counters` (shared by the
 * processes on one PostgreSQL), instead of refusing requests or letting them through uncounted.
 * Counts made during the outage stay in the database for their window, so right after Redis comes
 * back a key may get up to its limit once more in each store; never more.
 */
export function redisRateLimits(
  connection: RedisConnection,
  fallback: RateLimits,
  log: RedisLog,
): RateLimits {
  let failing = false;
  /** Until when Redis is not asked after a failure: a hung Redis costs one timeout, not one per request. */
  let skipUntil = 0;
  const onError = (error: unknown) => {
    if (!failing) {
      log.warn(
        `redis (limits): ${(error as Error).message}; counting rate limits in the database until Redis answers`,
      );
    }
    failing = true;
    skipUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
  };

  /** Redis's answer, or the fallback's when Redis cannot give one. */
  async function either<T>(inRedis: () => Promise<T>, inDatabase: () => Promise<T>): Promise<T> {
    if (!connection.ready()) {
      onError(new Error('not connected'));
      return inDatabase();
    }
    if (Date.now() < skipUntil) return inDatabase();
    try {
      const result = await inRedis();
      if (failing) log.info('redis (limits): answering again; rate limits count in Redis');
      failing = false;
      return result;
    } catch (error) {
      onError(error);
      return inDatabase();
    }
  }

  return (name, windowMs): RateLimit => {
    const bucketMs = Math.max(1, Math.floor(windowMs / 10));
    const oldestBucket = (now: number) => Math.floor((now - windowMs) / bucketMs);
    const inDatabase = fallback(name, windowMs);
    const client = connection.client;

    return {
      hit: (key) =>
        either(
          async () => {
            const now = Date.now();
            const total = await client.eval(
              HIT,
              1,
              redisRateKey(name, key),
              Math.floor(now / bucketMs),
              oldestBucket(now),
              // The newest bucket counts until the window has passed its end.
              windowMs + bucketMs,
            );
            return Number(total);
          },
          () => inDatabase.hit(key),
        ),
      count: (key) =>
        either(
          async () => {
            const fields = await client.hgetall(redisRateKey(name, key));
            const oldest = oldestBucket(Date.now());
            let total = 0;
            for (const [bucket, count] of Object.entries(fields))
              if (Number(bucket) > oldest) total += Number(count);
            return total;
          },
          () => inDatabase.count(key),
        ),
      release: (key) =>
        either(
          async () => {
            await client.eval(RELEASE, 1, redisRateKey(name, key), oldestBucket(Date.now()));
          },
          () => inDatabase.release(key),
        ),
      reset: (key) =>
        either(
          async () => {
            await client.del(redisRateKey(name, key));
          },
          () => inDatabase.reset(key),
        ),
    };
  };
}
