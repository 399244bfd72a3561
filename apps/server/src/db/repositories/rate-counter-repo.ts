import { sql } from 'kysely';
import type { Engine } from '../database.js';
import type { Queryable } from './queryable.js';

/** One limit's events of one key, counted in time buckets (`bucket` = time / bucket length). */
export interface RateCounterKey {
  name: string;
  key: string;
}

/** Removes the counters whose window has passed. */
export async function deleteExpiredRateCounters(db: Queryable, now: number): Promise<void> {
  await db.deleteFrom('rate_counters').where('expires_at', '<', now).execute();
}

/** The events of a key in the buckets after `oldestBucket`. */
export async function sumRateEvents(
  db: Queryable,
  counter: RateCounterKey,
  oldestBucket: number,
): Promise<number> {
  const row = await db
    .selectFrom('rate_counters')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), sql<number>`0`).as('total'))
    .where('name', '=', counter.name)
    .where('key', '=', counter.key)
    .where('bucket', '>', oldestBucket)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/**
 * Counts one event in `bucket` and returns the key's events in the buckets after `oldestBucket`,
 * this one included. The upsert and the sum of the window's other buckets are one statement on
 * PostgreSQL, so each caller gets the count including its own event and every event committed
 * before it: of N parallel callers the k-th to commit sees at least k (no check-then-act race
 * across processes).
 */
export async function recordRateEvent(
  db: Queryable,
  engine: Engine,
  counter: RateCounterKey,
  window: { bucket: number; oldestBucket: number; expiresAt: number },
): Promise<number> {
  const { name, key } = counter;
  const { bucket, oldestBucket, expiresAt } = window;
  if (engine === 'sqlite') {
    // SQLite has no INSERT inside WITH; its one connection runs the two statements back to
    // back, and the upsert that returns the bucket's count is the atomic step.
    const counted = await sql<{ count: number }>`
      insert into rate_counters (name, key, bucket, count, expires_at)
      values (${name}, ${key}, ${bucket}, 1, ${expiresAt})
      on conflict (name, key, bucket) do update set count = rate_counters.count + 1
      returning count`.execute(db);
    const others = await sql<{ total: number | null }>`
      select sum(count) as total from rate_counters
      where name = ${name} and key = ${key} and bucket > ${oldestBucket} and bucket <> ${bucket}`.execute(db);
    return Number(counted.rows[0]?.count ?? 1) + Number(others.rows[0]?.total ?? 0);
  }
  const { rows } = await sql<{ total: string | number }>`
    with counted as (
      insert into rate_counters (name, key, bucket, count, expires_at)
      values (${name}, ${key}, ${bucket}, 1, ${expiresAt})
      on conflict (name, key, bucket) do update set count = rate_counters.count + 1
      returning count
    )
    select (select count from counted) + coalesce((
      select sum(count) from rate_counters
      where name = ${name} and key = ${key} and bucket > ${oldestBucket} and bucket <> ${bucket}
    ), 0) as total`.execute(db);
  return Number(rows[0]?.total ?? 1);
}

/** Takes one event back from the newest bucket after `oldestBucket` that still holds one. */
export async function takeBackRateEvent(
  db: Queryable,
  counter: RateCounterKey,
  oldestBucket: number,
): Promise<void> {
  const { name, key } = counter;
  await sql`
    update rate_counters set count = count - 1
    where name = ${name} and key = ${key} and bucket = (
      select max(bucket) from rate_counters
      where name = ${name} and key = ${key} and bucket > ${oldestBucket} and count > 0
    )`.execute(db);
}

/** Forgets every event of a key. */
export async function deleteRateCounters(db: Queryable, counter: RateCounterKey): Promise<void> {
  await db
    .deleteFrom('rate_counters')
    .where('name', '=', counter.name)
    .where('key', '=', counter.key)
    .execute();
}
