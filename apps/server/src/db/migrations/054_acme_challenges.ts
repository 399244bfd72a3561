import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { timeType } from './column-types.js';

/**
 * ACME HTTP-01 challenges in flight (modules/certificates/acme-service.ts): token → key
 * authorization (RFC 8555 section 8.3), until `expires_at`. Behind a load balancer the CA's GET may
 * reach any process, so on PostgreSQL every process's challenge listener reads this table; SQLite
 * (one process) keeps them in memory and leaves it empty. A row lives for one order at most.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  await db.schema
    .createTable('acme_challenges')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('key_authorization', 'text', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('acme_challenges_expires').on('acme_challenges').column('expires_at').execute();
}
