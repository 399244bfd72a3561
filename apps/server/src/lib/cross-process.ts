import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Engine } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { createDatabaseRateLimits } from './database-rate-limits.js';
import { type EventTransport, localEventTransport } from './event-transport.js';
import { postgresEventTransport } from './postgres-event-transport.js';
import { memoryRateLimits, type RateLimits } from './rate-limiter.js';
import { connectRedis, type RedisLog } from './redis.js';
import { redisEventTransport } from './redis-event-transport.js';
import { redisRateLimits } from './redis-rate-limits.js';

/** Every event channel of the program (see `EventTransport`). */
export const EVENT_CHANNELS = ['mail', 'account', 'settings'] as const;

/**
 * What several processes of one deployment share besides the database: events and rate limits.
 * - `REDIS_URL` set: both in Redis (on either engine); limits fall back to the database's
 *   counters while Redis cannot be reached (`redis-rate-limits.ts`).
 * - PostgreSQL: events by LISTEN/NOTIFY, limits in the `rate_counters` table.
 * - SQLite (one process): events and limits in this process.
 */
export function createCrossProcess(options: {
  redisUrl: string | null;
  engine: Engine;
  db: Kysely<Database>;
  pool: pg.Pool | null;
  log: RedisLog;
}): { events: EventTransport; rateLimits: RateLimits; close(): Promise<void> } {
  const { redisUrl, engine, db, pool, log } = options;
  if (redisUrl) {
    const commands = connectRedis(redisUrl, 'commands', log);
    const subscriber = connectRedis(redisUrl, 'events', log);
    return {
      events: redisEventTransport(commands, subscriber, EVENT_CHANNELS, log),
      rateLimits: redisRateLimits(commands, createDatabaseRateLimits(db), log),
      async close() {
        await Promise.all([commands.close(), subscriber.close()]);
      },
    };
  }
  return {
    events: pool ? postgresEventTransport(pool, EVENT_CHANNELS, log) : localEventTransport(),
    rateLimits: engine === 'postgres' ? createDatabaseRateLimits(db) : memoryRateLimits(),
    async close() {},
  };
}
