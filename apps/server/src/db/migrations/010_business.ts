import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { idColumn, timeType } from './column-types.js';

/**
 * The operator's business: prepaid cards and store orders. Mailbox accounts themselves
 * live in `mailboxes` (001).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  const id = idColumn(engine);

  await db.schema
    .createTable('cards')
    .addColumn('id', id.type, id.build)
    // Shown and exported to the operator, so kept as issued; looked up by `code_hash` (see card-code.ts).
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('system_accounts.id').onDelete('cascade'))
    // A card for a domain that is deleted is worthless: it goes with the domain.
    .addColumn('domain_id', 'integer', (c) => c.references('domains.id').onDelete('cascade'))
    .addColumn('valid_days', 'integer', (c) => c.notNull())
    .addColumn('quota_bytes', time, (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('used_by', 'text')
    .addColumn('used_at', time)
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cards_owner_status').on('cards').columns(['owner_id', 'status']).execute();
  await db.schema.createIndex('cards_batch').on('cards').column('batch_id').execute();
  await db.schema.createIndex('cards_created').on('cards').column('created_at').execute();

  // Orders are business records: they keep the address, owner and amount as text and numbers and
  // survive the deletion of their domain or mailbox (no foreign keys on purpose).
  await db.schema
    .createTable('orders')
    .addColumn('id', id.type, id.build)
    .addColumn('order_no', 'text', (c) => c.notNull().unique())
    .addColumn('domain_id', 'integer', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('local_part', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('pay_method', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('trade_no', 'text')
    .addColumn('mailbox_id', 'integer')
    .addColumn('failure', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('paid_at', time)
    .addColumn('delivered_at', time)
    .execute();
  await db.schema.createIndex('orders_phone').on('orders').columns(['phone', 'created_at']).execute();
  await db.schema.createIndex('orders_owner_status').on('orders').columns(['owner_id', 'status']).execute();
  await db.schema
    .createIndex('orders_status_expires')
    .on('orders')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema.createIndex('orders_created').on('orders').column('created_at').execute();
  // One unpaid order per address: two buyers racing for the same name cannot both hold it. Both
  // engines support partial unique indexes.
  await db.schema
    .createIndex('orders_address_pending')
    .on('orders')
    .column('address')
    .unique()
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .execute();
}
