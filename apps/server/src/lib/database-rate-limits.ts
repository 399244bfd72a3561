import { type Kysely, SqliteAdapter } from 'kysely';
import type { Engine } from '../db/database.js';
import type { Queryable } from '../db/repositories/queryable.js';
import {
  deleteExpiredRateCounters,
  deleteRateCounters,
  recordRateEvent,
  sumRateEvents,
  takeBackRateEvent,
} from '../db/repositories/rate-counter-repo.js';
import type { Database } from '../db/schema.js';
import type { RateLimits } from './rate-limiter.js';

/** How often a process clears counters whose window has passed. */
const SWEEP_MS = 60_000;

/**
 * Rate limits kept in the database (table `rate_counters`), for several processes against one
 * PostgreSQL: the same sliding window as the in-process limiter (buckets of a tenth of the
 * window), counted with one upsert per event, so that processes never lose each other's counts.
 */
export function createDatabaseRateLimits(db: Kysely<Database>): RateLimits {
  let lastSweep = 0;
  const engine: Engine = db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';

  async function sweep(now: number): Promise<void> {
    if (now - lastSweep < SWEEP_MS) return;
    lastSweep = now;
    await deleteExpiredRateCounters(db, now);
  }

  return (name, windowMs) => {
    const bucketMs = Math.max(1, Math.floor(windowMs / 10));
    const limitName = name.slice(0, 64);
    const counterOf = (key: string) => ({ name: limitName, key: key.slice(0, 200) });
    const oldestBucket = (now: number) => Math.floor((now - windowMs) / bucketMs);

    return {
      async hit(key) {
        const now = Date.now();
        const bucket = Math.floor(now / bucketMs);
        const total = await recordRateEvent(db, engine, counterOf(key), {
          bucket,
          oldestBucket: oldestBucket(now),
          expiresAt: (bucket + 1) * bucketMs + windowMs,
        });
        await sweep(now);
        return total;
      },
      async release(key) {
        await takeBackRateEvent(db, counterOf(key), oldestBucket(Date.now()));
      },
      count: (key) => sumRateEvents(db, counterOf(key), oldestBucket(Date.now())),
      async reset(key) {
        await deleteRateCounters(db, counterOf(key));
      },
    };
  };
}

/**
 * Counts one event of the database limit `name` (the same window and buckets as
 * createDatabaseRateLimits) inside the caller's open transaction, and returns the total with it and
 * how to take it back. For work that must count in the very transaction that does it (a forwarded
 * copy queued with the received message), where the limiter's own connection would wait for the
 * transaction's lock (SQLite has one connection).
 */
export async function hitRateLimitIn(
  db: Queryable,
  engine: Engine,
  name: string,
  windowMs: number,
  key: string,
): Promise<{ total: number; release: () => Promise<void> }> {
  const now = Date.now();
  const bucketMs = Math.max(1, Math.floor(windowMs / 10));
  const counter = { name: name.slice(0, 64), key: key.slice(0, 200) };
  const bucket = Math.floor(now / bucketMs);
  const oldestBucket = Math.floor((now - windowMs) / bucketMs);
  const total = await recordRateEvent(db, engine, counter, {
    bucket,
    oldestBucket,
    expiresAt: (bucket + 1) * bucketMs + windowMs,
  });
  return { total, release: () => takeBackRateEvent(db, counter, oldestBucket) };
}
