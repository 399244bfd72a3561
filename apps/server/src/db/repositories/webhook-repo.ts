import { type ExpressionBuilder, type Insertable, sql, type Updateable } from 'kysely';
import { runCompiled } from '../compiled-query.js';
import type { Engine } from '../database.js';
import type {
  Database,
  WebhookDeliveryRow,
  WebhookDeliveryTable,
  WebhookRow,
  WebhookTable,
} from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * Webhooks, Telegram targets and their delivery queue: one file owns both tables because queueing
 * new mail is one INSERT…SELECT from the one into the other.
 */

/** An owner's targets of one kind, oldest first. */
export async function listWebhooksOfOwner(
  db: Queryable,
  ownerId: number,
  kind: WebhookRow['kind'],
): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();
}

export async function countWebhooksOfOwner(
  db: Queryable,
  ownerId: number,
  kind: WebhookRow['kind'],
): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The target `id` when `ownerId` owns it and it is of `kind`; undefined otherwise (someone else's). */
export async function findWebhookOfOwner(
  db: Queryable,
  id: number,
  ownerId: number,
  kind: WebhookRow['kind'],
): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

/** The owner's Telegram target, if it set one. */
export async function findTelegramOfOwner(db: Queryable, ownerId: number): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('kind', '=', 'telegram')
    .orderBy('id')
    .executeTakeFirst();
}

export async function insertWebhook(db: Queryable, row: Insertable<WebhookTable>): Promise<number> {
  const inserted = await db.insertInto('webhooks').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Changes a target only while `ownerId` owns it; false when no such row is the owner's. */
export async function updateWebhookOfOwner(
  db: Queryable,
  id: number,
  ownerId: number,
  changes: Updateable<WebhookTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set(changes)
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a webhook (its deliveries go with it) only while `ownerId` owns it. */
export async function deleteWebhookOfOwner(db: Queryable, id: number, ownerId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('kind', '=', 'http')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What the last finished delivery of a target came to, for the list. */
export async function recordWebhookOutcome(
  db: Queryable,
  id: number,
  outcome: { status: 'delivered' | 'failed'; responseCode: number | null; at: number },
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({
      last_status: outcome.status,
      last_response_code: outcome.responseCode,
      last_attempt_at: outcome.at,
    })
    .where('id', '=', id)
    .execute();
}

/** How much of a message's text a delivery reads (characters; the payload cuts it to 4 KB). */
const TEXT_CHARACTERS = 4096;

/** A fresh random delivery key, made by the database so the enqueue stays one statement. */
function randomKey(engine: Engine) {
  return engine === 'postgres'
    ? sql<string>`replace(gen_random_uuid()::text, '-', '')`
    : sql<string>`lower(hex(randomblob(16)))`;
}

/**
 * Targets that hear `event`: a webhook subscribed to it (its JSON list of events holds the name in
 * quotes), and every Telegram target (the owner's bot hears all events).
 */
function subscribedTo(event: 'mail.received' | 'order.created') {
  return (eb: ExpressionBuilder<Database, 'webhooks'>) =>
    eb.or([eb('webhooks.kind', '=', 'telegram'), eb('webhooks.events_json', 'like', `%"${event}"%`)]);
}

/**
 * Queues `event` with its body `payload` (JSON) for every enabled target of `ownerId` that hears
 * it, in one INSERT…SELECT (run in the transaction that makes the event true). Only that owner's
 * targets: another account's webhooks never see it.
 */
export async function enqueueOwnerEventDeliveries(
  db: Queryable,
  engine: Engine,
  event: { ownerId: number; name: 'order.created'; payload: string },
  now: number,
): Promise<number> {
  const result = await db
    .insertInto('webhook_deliveries')
    .columns([
      'webhook_id',
      'event',
      'payload',
      'delivery_key',
      'status',
      'attempts',
      'next_attempt_at',
      'created_at',
      'updated_at',
    ])
    .expression(
      db
        .selectFrom('webhooks')
        .select([
          'webhooks.id',
          sql.val(event.name).as('event'),
          sql.val(event.payload).as('payload'),
          randomKey(engine).as('delivery_key'),
          sql.lit('pending').as('status'),
          sql.lit(0).as('attempts'),
          sql.val(now).as('next_attempt_at'),
          sql.val(now).as('created_at'),
          sql.val(now).as('updated_at'),
        ])
        .where('webhooks.owner_id', '=', event.ownerId)
        .where('webhooks.enabled', '=', 1)
        .where(subscribedTo(event.name)),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Queues `mail.received` for every enabled target of the owners of the mailboxes the messages
 * `messageIds` landed in (a target limited to one address only for that address), in one
 * INSERT…SELECT: run inside the transaction that stores the messages, so a stored message always
 * has its deliveries.
 */
export async function enqueueMailDeliveries(
  db: Queryable,
  engine: Engine,
  messageIds: number[],
  now: number,
): Promise<number> {
  if (messageIds.length === 0) return 0;
  // A service where no target is enabled (most, and every one without webhooks or a bot) is told
  // by one row of `webhooks`: the INSERT…SELECT costs 30–150 µs on SQLite even when it queues
  // nothing (it reads each message's row), the look under a microsecond.
  const { rows: enabled } = await runCompiled(db, 'anyEnabledWebhook', engine, [], () =>
    db.selectFrom('webhooks').select('id').where('enabled', '=', 1).limit(1),
  );
  if (enabled.length === 0) return 0;
  // Run for every stored message: compiled once (compiled-query.ts).
  const { numAffectedRows } = await runCompiled(
    db,
    'enqueueMailDeliveries',
    `${engine}:${messageIds.length}`,
    [now, ...messageIds],
    ([at, ...ids]) =>
      db
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
              sql.val(at).as('next_attempt_at'),
              sql.val(at).as('created_at'),
              sql.val(at).as('updated_at'),
            ])
            .where('messages.id', 'in', ids)
            .where('webhooks.enabled', '=', 1)
            .where(subscribedTo('mail.received'))
            .where((eb) =>
              eb.or([
                eb('webhooks.address', 'is', null),
                eb('webhooks.address', '=', eb.ref('mailboxes.address')),
              ]),
            ),
        ),
  );
  return Number(numAffectedRows ?? 0);
}

/** Inserts one delivery row as given (testWebhook records its finished attempt with it). */
export async function insertWebhookDelivery(
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
  /** the stored body of an event not about a message (`order.created`), else null */
  payload: string | null;
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
      'webhook_deliveries.payload',
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
    payload: row.payload,
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

/**
 * Records an attempt's outcome and ends the lease, only while `leaseOwner` still holds the row;
 * `answered` (the HTTP status, 0 for none) joins the row's list of codes, null adds nothing.
 */
export async function recordWebhookDeliveryIfLeased(
  db: Queryable,
  id: number,
  leaseOwner: string,
  changes: Updateable<WebhookDeliveryTable>,
  answered: number | null,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      ...changes,
      lease_owner: null,
      lease_until: null,
      ...(answered === null
        ? {}
        : {
            response_codes: sql<string>`case when ${eb.ref('response_codes')} = '' then ${String(answered)} else ${eb.ref('response_codes')} || ',' || ${String(answered)} end`,
          }),
    }))
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

/** Forgets settled deliveries (delivered or failed) last touched before `cutoff`. */
export async function deleteSettledWebhookDeliveriesBefore(db: Queryable, cutoff: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['delivered', 'failed'])
    .where('updated_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
