import { type Kysely, sql } from 'kysely';
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

  async function sweep(now: number): Promise<void> {
    if (now - lastSweep < SWEEP_MS) return;
    lastSweep = now;
    await db.deleteFrom('rate_counters').where('expires_at', '<', now).execute();
  }

  return (name, windowMs) => {
    const bucketMs = Math.max(1, Math.floor(windowMs / 10));
    const limitName = name.slice(0, 64);
    const keyOf = (key: string) => key.slice(0, 200);

    async function count(key: string, now = Date.now()): Promise<number> {
      const oldest = Math.floor((now - windowMs) / bucketMs);
      const row = await db
        .selectFrom('rate_counters')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), sql<number>`0`).as('total'))
        .where('name', '=', limitName)
        .where('key', '=', keyOf(key))
        .where('bucket', '>', oldest)
        .executeTakeFirst();
      return Number(row?.total ?? 0);
    }

    return {
      async hit(key) {
        const now = Date.now();
        const bucket = Math.floor(now / bucketMs);
        await db
          .insertInto('rate_counters')
          .values({
            name: limitName,
            key: keyOf(key),
            bucket,
            count: 1,
            expires_at: (bucket + 1) * bucketMs + windowMs,
          })
          .onConflict((conflict) =>
            conflict
              .columns(['name', 'key', 'bucket'])
              .doUpdateSet((eb) => ({ count: eb('rate_counters.count', '+', 1) })),
          )
          .execute();
        const total = await count(key, now);
        await sweep(now);
        return total;
      },
      count: (key) => count(key),
      async reset(key) {
        await db
          .deleteFrom('rate_counters')
          .where('name', '=', limitName)
          .where('key', '=', keyOf(key))
          .execute();
      },
    };
  };
}
