import type { Insertable, Updateable } from 'kysely';
import type { WebhookRow, WebhookTable } from '../schema.js';
import type { Queryable } from './queryable.js';

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
