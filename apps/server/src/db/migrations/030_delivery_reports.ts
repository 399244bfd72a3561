import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { timeType } from './column-types.js';

/**
 * Bounce messages (delivery status notifications, RFC 3464) for the outbound queue. A recipient
 * whose delivery fails keeps what the DSN needs beside its row (the server's last reply, which
 * server gave it, the RFC 3463 status), and the row carries the state of its bounce: set to
 * `pending` in the same UPDATE that records the failure, and to `sent` in the transaction that
 * stores the bounce in the sender's mailbox, so a bounce is never lost to a crash and never
 * stored twice. `bounce_owner` and `bounce_due_at` claim it like `lease_owner` and `lease_until`
 * claim a delivery. Rows that failed before this migration keep `bounce_state` null: no bounce.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  // SQLite adds one column per ALTER TABLE statement.
  const columns: Array<[string, 'text' | 'integer' | typeof time]> = [
    // the last SMTP reply a server gave about this recipient, one line as sent (Diagnostic-Code)
    ['last_reply', 'text'],
    // the host that gave it: the recipient's MX or the relay (Remote-MTA)
    ['remote_mta', 'text'],
    // the RFC 3463 status of a failed delivery, e.g. 5.1.1 (Status)
    ['failure_status', 'text'],
    // null (no bounce due), pending, sent, skipped (nobody to tell, or a bounce of a bounce) or
    // abandoned (the sender's mailbox could not take it, retries used up)
    ['bounce_state', 'text'],
    ['bounce_owner', 'text'],
    // when the bounce may next be taken: at once, when a claim's lease ends, or a retry time
    ['bounce_due_at', time],
  ];
  for (const [name, type] of columns) {
    await db.schema.alterTable('outbound_queue').addColumn(name, type).execute();
  }
  await db.schema
    .alterTable('outbound_queue')
    .addColumn('bounce_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The worker looks for bounces to send by state and time.
  await db.schema
    .createIndex('outbound_queue_bounce_due')
    .on('outbound_queue')
    .columns(['bounce_state', 'bounce_due_at'])
    .execute();
}
