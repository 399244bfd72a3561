import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { idColumn, timeType } from './column-types.js';

/**
 * Received mail: the raw bytes of each DATA in 256 KiB chunks inside the database, so
 * that one transaction commits raw message and metadata together and, on PostgreSQL, every process
 * can serve every message; one `messages` row per recipient mailbox sharing those chunks; content
 * filters; the IP blacklist.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  const id = idColumn(engine);
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('raw_messages')
    .addColumn('id', id.type, id.build)
    .addColumn('size', time, (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('message_raw_chunks')
    .addColumn('raw_id', 'integer', (c) => c.notNull().references('raw_messages.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('message_raw_chunks_pk', ['raw_id', 'seq'])
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', id.type, id.build)
    .addColumn('mailbox_id', 'integer', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('raw_id', 'integer', (c) => c.notNull().references('raw_messages.id'))
    .addColumn('envelope_from', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('from_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('from_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('snippet', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('text_body', 'text')
    .addColumn('html_body', 'text')
    .addColumn('to_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('cc_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('attachments_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('message_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sent_at', time)
    .addColumn('received_at', time, (c) => c.notNull())
    .addColumn('size', time, (c) => c.notNull())
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('starred', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('spam', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_attachments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parse_error', 'text')
    .execute();
  // getInbox lists one mailbox newest first; unread counts and the starred filter stay per mailbox.
  await db.schema
    .createIndex('messages_mailbox_received')
    .on('messages')
    .columns(['mailbox_id', 'received_at'])
    .execute();
  await db.schema
    .createIndex('messages_mailbox_read')
    .on('messages')
    .columns(['mailbox_id', 'read'])
    .execute();
  await db.schema
    .createIndex('messages_mailbox_starred')
    .on('messages')
    .columns(['mailbox_id', 'starred'])
    .execute();
  // Administrators list everything newest first; the retention purge scans by age.
  await db.schema.createIndex('messages_received').on('messages').column('received_at').execute();
  // Deleting a message checks whether its raw bytes are still shared with other recipients.
  await db.schema.createIndex('messages_raw').on('messages').column('raw_id').execute();

  await db.schema
    .createTable('mail_filters')
    .addColumn('id', id.type, id.build)
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('system_accounts.id').onDelete('cascade'))
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('match', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_filters_owner').on('mail_filters').column('owner_id').execute();

  await db.schema
    .createTable('ip_blacklist')
    .addColumn('id', id.type, id.build)
    .addColumn('ip', 'text', (c) => c.notNull().unique())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time)
    .execute();
  await db.schema.createIndex('ip_blacklist_expires').on('ip_blacklist').column('expires_at').execute();
}
