import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { idColumn, timeType } from './column-types.js';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);

  await db.schema
    .createTable('system_accounts')
    .addColumn('id', idColumn(engine).type, idColumn(engine).build)
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_domains', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_mailboxes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_login_at', time)
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', idColumn(engine).type, idColumn(engine).build)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_seen_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('revoked_at', time)
    .execute();
  await db.schema
    .createIndex('sessions_subject')
    .on('sessions')
    .columns(['subject_kind', 'subject_id'])
    .execute();

  await db.schema
    .createTable('domains')
    .addColumn('id', idColumn(engine).type, idColumn(engine).build)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('system_accounts.id'))
    .addColumn('public_registration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('for_sale', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('price', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dkim_selector', 'text')
    .addColumn('dkim_private_key', 'text')
    .addColumn('dkim_public_key', 'text')
    .addColumn('dns_status', 'text', (c) => c.notNull().defaultTo('unchecked'))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domains_owner').on('domains').column('owner_id').execute();

  await db.schema
    .createTable('mailboxes')
    .addColumn('id', idColumn(engine).type, idColumn(engine).build)
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('local_part', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('system_accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('quota_bytes', time, (c) => c.notNull().defaultTo(0))
    .addColumn('used_bytes', time, (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', time)
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mailboxes_domain').on('mailboxes').column('domain_id').execute();
  await db.schema.createIndex('mailboxes_owner_kind').on('mailboxes').columns(['owner_id', 'kind']).execute();
  await db.schema.createIndex('mailboxes_expires').on('mailboxes').column('expires_at').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
