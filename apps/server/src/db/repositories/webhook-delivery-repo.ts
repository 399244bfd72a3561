import { type ExpressionBuilder, type Insertable, sql, type Updateable } from 'kysely';
import type { Engine } from '../database.js';
import type { Database, WebhookDeliveryRow, WebhookDeliveryTable, WebhookRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/** How much of a message's text a delivery reads (characters; the payload cuts it to 4 KB). */
const TEXT_CHARACTERS = 4096;

/** A fresh random delivery key, made by the database so the enqueue stays one statement. */
function randomKey(engine: Engine) {
  return engine === 'postgres'
    ? sql<string>`replace(gen_random_uuid()::text, '-', '')`
    : sql<string>`lower(hex(randomblob(16)))`;
}

/**
 * Queues `mail.received` for every enabled target of the owners of the mailboxes the messages
 * `messageIds` landed in (a target limited to one address only for that address), in one
 * INSERT…SELECT: run inside the transaction that stores the messages, so a stored message always
 * has its deliveries. Costs one indexed lookup of `webhooks` when nobody wants to hear.
 */
export async function enqueueMailDeliveries(
  db: Queryable,
  engine: Engine,
  messageIds: number[],
  now: number,
): Promise<number> {
  if (messageIds.length === 0) return 0;
  const result = await db
    .insertInto('webhook_deliveries')
    .columns([
      'webhook_id',
      'event',
      'message_id',
      'delivery_key',
      'status',
      'attempts',
      'next_attempt_at',
      'created_at',
      'updated_at',
    ])
    .expression(
      db
        // Started on the owner's targets (this file owns them), joined to the stored messages.
        .selectFrom('webhooks')
        .innerJoin('mailboxes', 'mailboxes.owner_id', 'webhooks.owner_id')
        .innerJoin('messages', 'messages.mailbox_id', 'mailboxes.id')
        .select([
          'webhooks.id',
          sql.lit('mail.received').as('event'),
          'messages.id as message_id',
          randomKey(engine).as('delivery_key'),
          sql.lit('pending').as('status'),
          sql.lit(0).as('attempts'),
          sql.val(now).as('next_attempt_at'),
          sql.val(now).as('created_at'),
          sql.val(now).as('updated_at'),
        ])
        .where('messages.id', 'in', messageIds)
        .where('webhooks.enabled', '=', 1)
        .where((eb) =>
          eb.or([
            eb('webhooks.address', 'is', null),
            eb('webhooks.address', '=', eb.ref('mailboxes.address')),
          ]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Records a delivery made on the spot (testWebhook), finished already. */
export async function insertFinishedDelivery(
  db: Queryable,
  row: Omit<Insertable<WebhookDeliveryTable>, 'id'>,
): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

/** Pending rows whose time has come, or rows under a lease that ran out (a process died). */
function due(now: number) {
  return (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) =>
    eb.and([
      eb('status', '=', 'pending'),
      eb('next_attempt_at', '<=', now),
      eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]),
    ]);
}

/** Up to `limit` ids due at `now`, the longest waiting first. */
export async function listDueWebhookDeliveries(db: Queryable, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where(due(now))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  return rows.map((row) => Number(row.id));
}

/**
 * Puts the rows among `ids` that are still due under `lease` in one conditional UPDATE, counting
 * an attempt: a row another process took meanwhile is left alone.
 */
export async function leaseDueWebhookDeliveries(
  db: Queryable,
  ids: number[],
  lease: { owner: string; until: number; now: number },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      lease_owner: lease.owner,
      lease_until: lease.until,
      attempts: eb('attempts', '+', 1),
      updated_at: lease.now,
    }))
    .where('id', 'in', ids)
    .where(due(lease.now))
    .execute();
}

/** A leased delivery with its target and the message it is about (null: deleted meanwhile). */
export interface LeasedWebhookDelivery {
  id: number;
  event: string;
  deliveryKey: string;
  attempts: number;
  createdAt: number;
  webhook: Pick<WebhookRow, 'id' | 'kind' | 'url' | 'chat_id' | 'secret'>;
  message: {
    id: number;
    address: string;
    fromAddress: string;
    fromName: string;
    subject: string;
    receivedAt: number;
    code: string | null;
    spam: number;
    text: string | null;
  } | null;
}

/** The rows among `ids` that `leaseOwner` holds. */
export async function listLeasedWebhookDeliveries(
  db: Queryable,
  ids: number[],
  leaseOwner: string,
): Promise<LeasedWebhookDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .leftJoin('messages', 'messages.id', 'webhook_deliveries.message_id')
    .leftJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.event',
      'webhook_deliveries.delivery_key',
      'webhook_deliveries.attempts',
      'webhook_deliveries.created_at',
      'webhooks.id as webhook_id',
      'webhooks.kind',
      'webhooks.url',
      'webhooks.chat_id',
      'webhooks.secret',
      'messages.id as message_id',
      'mailboxes.address',
      'messages.from_address',
      'messages.from_name',
      'messages.subject',
      'messages.received_at',
      'messages.code',
      'messages.spam',
      sql<string | null>`substr(${sql.ref('messages.text_body')}, 1, ${sql.lit(TEXT_CHARACTERS)})`.as('text'),
    ])
    .where('webhook_deliveries.id', 'in', ids)
    .where('webhook_deliveries.lease_owner', '=', leaseOwner)
    .orderBy('webhook_deliveries.id')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    event: row.event,
    deliveryKey: row.delivery_key,
    attempts: row.attempts,
    createdAt: Number(row.created_at),
    webhook: {
      id: Number(row.webhook_id),
      kind: row.kind,
      url: row.url,
      chat_id: row.chat_id,
      secret: row.secret,
    },
    message:
      row.message_id === null || row.address === null
        ? null
        : {
            id: Number(row.message_id),
            address: row.address,
            fromAddress: row.from_address ?? '',
            fromName: row.from_name ?? '',
            subject: row.subject ?? '',
            receivedAt: Number(row.received_at),
            code: row.code ?? null,
            spam: Number(row.spam ?? 0),
            text: row.text,
          },
  }));
}

/** Records an attempt's outcome and ends the lease, only while `leaseOwner` still holds the row. */
export async function recordWebhookDeliveryIfLeased(
  db: Queryable,
  id: number,
  leaseOwner: string,
  changes: Updateable<WebhookDeliveryTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ ...changes, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', leaseOwner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A page of one webhook's deliveries, newest first, and how many there are. */
export async function pageDeliveriesOfWebhook(
  db: Queryable,
  webhookId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('webhook_id', '=', webhookId)
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.count ?? 0) };
}
