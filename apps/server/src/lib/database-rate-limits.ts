import { type Kysely, SqliteAdapter, sql } from 'kysely';
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
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;

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
        const oldest = Math.floor((now - windowMs) / bucketMs);
        const entry = keyOf(key);
        // One statement: the upsert and the sum of the window's other buckets. Each caller gets the
        // count including its own event and every event committed before it, so of N parallel
        // callers the k-th to commit sees at least k (no check-then-act race across processes).
        if (sqlite) {
          // SQLite has no INSERT inside WITH; its one connection runs the two statements back to
          // back, and the upsert that returns the bucket's count is the atomic step.
          const counted = await sql<{ count: number }>`
            insert into rate_counters (name, key, bucket, count, expires_at)
            values (${limitName}, ${entry}, ${bucket}, 1, ${(bucket + 1) * bucketMs + windowMs})
            on conflict (name, key, bucket) do update set count = rate_counters.count + 1
            returning count`.execute(db);
          const others = await sql<{ total: number | null }>`
            select sum(count) as total from rate_counters
            where name = ${limitName} and key = ${entry} and bucket > ${oldest} and bucket <> ${bucket}`.execute(
            db,
          );
          await sweep(now);
          return Number(counted.rows[0]?.count ?? 1) + Number(others.rows[0]?.total ?? 0);
        }
        const { rows } = await sql<{ total: string | number }>`
          with counted as (
            insert into rate_counters (name, key, bucket, count, expires_at)
            values (${limitName}, ${entry}, ${bucket}, 1, ${(bucket + 1) * bucketMs + windowMs})
            on conflict (name, key, bucket) do update set count = rate_counters.count + 1
            returning count
          )
          select (select count from counted) + coalesce((
            select sum(count) from rate_counters
            where name = ${limitName} and key = ${entry} and bucket > ${oldest} and bucket <> ${bucket}
          ), 0) as total`.execute(db);
        await sweep(now);
        return Number(rows[0]?.total ?? 1);
      },
      async release(key) {
        const now = Date.now();
        const oldest = Math.floor((now - windowMs) / bucketMs);
        const entry = keyOf(key);
        await sql`
          update rate_counters set count = count - 1
          where name = ${limitName} and key = ${entry} and bucket = (
            select max(bucket) from rate_counters
            where name = ${limitName} and key = ${entry} and bucket > ${oldest} and count > 0
          )`.execute(db);
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
