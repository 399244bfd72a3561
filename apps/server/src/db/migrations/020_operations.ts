import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { idColumn, timeType } from './column-types.js';

/**
 * Running the service: personal settings, the login history, API keys for the open API,
 * and where a blacklist entry came from.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  const id = idColumn(engine);

  // One row per account or mailbox; absent = defaults (empty display name and signature).
  await db.schema
    .createTable('personal_settings')
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('signature', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('personal_settings_pk', ['subject_kind', 'subject_id'])
    .execute();

  // Every login attempt, successful or not. A failure for a name that does not exist has no
  // subject; it is still kept (by IP) for the administrator.
  await db.schema
    .createTable('login_history')
    .addColumn('id', id.type, id.build)
    .addColumn('subject_kind', 'text')
    .addColumn('subject_id', 'integer')
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_history_subject')
    .on('login_history')
    .columns(['subject_kind', 'subject_id', 'created_at'])
    .execute();
  await db.schema.createIndex('login_history_created').on('login_history').column('created_at').execute();

  // Only the SHA-256 of a key is stored; `key_hint` (its last characters) lets the owner recognise it.
  await db.schema
    .createTable('api_keys')
    .addColumn('id', id.type, id.build)
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('system_accounts.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_used_at', time)
    .addColumn('revoked_at', time)
    .execute();
  await db.schema.createIndex('api_keys_owner').on('api_keys').columns(['owner_id', 'revoked_at']).execute();

  // manual (an administrator), login (throttling) or smtp (abuse on the listener).
  await db.schema
    .alterTable('ip_blacklist')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('manual'))
    .execute();
}
