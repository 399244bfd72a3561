import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { idColumn, timeType } from './column-types.js';

/**
 * Domains and DNS: DKIM keys per domain (more than one while a rotation is under way), the DNS
 * provider a domain's records are written through, and when its DNS was last checked.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);

  await db.schema
    .createTable('domain_dkim_keys')
    .addColumn('id', idColumn(engine).type, idColumn(engine).build)
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('selector', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('domain_dkim_keys_domain_selector', ['domain_id', 'selector'])
    .execute();

  await db.schema
    .createTable('domain_dns_providers')
    .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('server', 'text', (c) => c.notNull())
    .addColumn('zone', 'text', (c) => c.notNull())
    .addColumn('key_name', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema.alterTable('domains').addColumn('dns_checked_at', time).execute();
}
