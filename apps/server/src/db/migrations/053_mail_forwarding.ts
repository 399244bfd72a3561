import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { timeType } from './column-types.js';

/**
 * Mail forwarding (modules/forwarding):
 * - `mail_forwards`: at most one forwarding target per mailbox. `keep_copy` 0 leaves no copy in the
 *   mailbox once the forwarded copy is queued (a copy that cannot be forwarded is always kept).
 *   `last_skipped_at`/`last_skip_reason` record the latest copy that was not forwarded (sending
 *   limit, loop, policy), so the owner can see why.
 * - `sent_messages.kind`: `sent` for what a person sent (the sent folder), `forward` for a
 *   forwarded copy or a returned bounce; these go through the same durable outbound queue but are
 *   listed nowhere. `sent_messages.envelope_from`: the envelope sender when it is not
 *   `from_address` (the SRS0 address of a forwarded copy, the empty sender of a bounce).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  await db.schema
    .createTable('mail_forwards')
    .addColumn('mailbox_id', 'integer', (c) =>
      c.primaryKey().notNull().references('mailboxes.id').onDelete('cascade'),
    )
    .addColumn('forward_to', 'text', (c) => c.notNull())
    .addColumn('keep_copy', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('last_skipped_at', time)
    .addColumn('last_skip_reason', 'text')
    .execute();
  await db.schema
    .alterTable('sent_messages')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('sent'))
    .execute();
  await db.schema.alterTable('sent_messages').addColumn('envelope_from', 'text').execute();
}
