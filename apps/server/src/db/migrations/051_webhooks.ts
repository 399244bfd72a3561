import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { idColumn, timeType } from './column-types.js';

/**
 * Webhooks and Telegram (modules/webhooks): where a system account wants to hear about new mail,
 * and the durable queue of what is still to be told.
 * - `webhooks`: one row per target. `kind` `http` is a webhook (`url`, `secret` = the HMAC key);
 *   `telegram` is the owner's one Telegram bot (`secret` = the bot token, `chat_id`). Both are fed
 *   by the same enqueue statement, so a stored message needs one INSERT…SELECT for all of them.
 * - `webhook_deliveries`: like outbound_queue, a row per target and event, taken under a lease
 *   (owner, until) so that several processes on one PostgreSQL never send a row at the same time.
 *   The message is read when the row is sent (its text is not copied here on the ingest path);
 *   `message_id` has no foreign key so deleting mail never waits on this table.
 * Nothing here depends on other migrations' columns of `messages`.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  const id = idColumn(engine);

  await db.schema
    .createTable('webhooks')
    .addColumn('id', id.type, id.build)
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('system_accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('chat_id', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('events_json', 'text', (c) => c.notNull().defaultTo('["mail.received"]'))
    // only mail to this address (lower case), or every address of the owner when null
    .addColumn('address', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_status', 'text')
    .addColumn('last_response_code', 'integer')
    .addColumn('last_attempt_at', time)
    .execute();
  // The enqueue looks up a recipient owner's enabled targets; the lists read an owner's.
  await db.schema.createIndex('webhooks_owner').on('webhooks').columns(['owner_id', 'enabled']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', id.type, id.build)
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('message_id', 'integer')
    // X-Youju-Delivery: the same on every attempt of the row, so receivers can drop repeats
    .addColumn('delivery_key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', time)
    .addColumn('response_code', 'integer')
    // every attempt's HTTP status, comma-separated (0: no answer), for the delivery log
    .addColumn('response_codes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('delivered_at', time)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();
}
