import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { timeType } from './column-types.js';

/**
 * Rate-limit counters shared by every process against one PostgreSQL (lib/database-rate-limits.ts):
 * one row per limit, key and time bucket. SQLite deployments are one process and count in memory,
 * but the table exists on both engines so that the schema is the same.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  await db.schema
    .createTable('rate_counters')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('bucket', time, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_counters_pk', ['name', 'key', 'bucket'])
    .execute();
  await db.schema.createIndex('rate_counters_expires').on('rate_counters').column('expires_at').execute();
}
