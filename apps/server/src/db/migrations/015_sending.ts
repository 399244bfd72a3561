import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { idColumn, timeType } from './column-types.js';

/**
 * Sending mail: uploaded attachments, the sent folder and the durable outbound queue.
 * Bytes live in the database in 256 KiB chunks, like received mail (migration 002), so that with
 * PostgreSQL every process can attach an upload another process took and deliver a message another
 * process queued. They get their own chunk tables: the received-mail clean-up deletes raw messages
 * no received message refers to, and must not see these.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  const id = idColumn(engine);
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // who may attach it: a system account ('system') or a mailbox session ('mailbox')
    .addColumn('owner_kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', time, (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  // The clean-up removes uploads by age.
  await db.schema.createIndex('uploads_created').on('uploads').column('created_at').execute();

  await db.schema
    .createTable('upload_chunks')
    .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunks_pk', ['upload_id', 'seq'])
    .execute();

  await db.schema
    .createTable('sent_messages')
    .addColumn('id', id.type, id.build)
    // the system account the message counts for: the sender, or the owner of the sending mailbox
    .addColumn('account_id', 'integer', (c) => c.references('system_accounts.id').onDelete('cascade'))
    // set when a mailbox session sent it
    .addColumn('mailbox_id', 'integer', (c) => c.references('mailboxes.id').onDelete('cascade'))
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_json', 'text', (c) => c.notNull())
    .addColumn('cc_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('bcc_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('text_body', 'text')
    .addColumn('html_body', 'text')
    .addColumn('attachments_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('recipient_count', 'integer', (c) => c.notNull())
    .addColumn('size', time, (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  // The sent lists (per account, per mailbox, everything for administrators) go newest first, and
  // the sending limits count an account's or a mailbox's recent recipients.
  await db.schema
    .createIndex('sent_messages_account_created')
    .on('sent_messages')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('sent_messages_mailbox_created')
    .on('sent_messages')
    .columns(['mailbox_id', 'created_at'])
    .execute();
  await db.schema.createIndex('sent_messages_created').on('sent_messages').column('created_at').execute();

  await db.schema
    .createTable('sent_message_chunks')
    .addColumn('sent_id', 'integer', (c) => c.notNull().references('sent_messages.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('sent_message_chunks_pk', ['sent_id', 'seq'])
    .execute();

  await db.schema
    .createTable('outbound_queue')
    .addColumn('id', id.type, id.build)
    .addColumn('sent_id', 'integer', (c) => c.notNull().references('sent_messages.id').onDelete('cascade'))
    .addColumn('rcpt', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    // a claim: which worker holds the row and until when; an expired lease is claimable again
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', time)
    .addColumn('last_error', 'text')
    .addColumn('remote_response', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('delivered_at', time)
    .execute();
  // The worker looks for due rows by status and time; the sent list loads rows per message.
  await db.schema
    .createIndex('outbound_queue_due')
    .on('outbound_queue')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('outbound_queue_sent').on('outbound_queue').column('sent_id').execute();
}
