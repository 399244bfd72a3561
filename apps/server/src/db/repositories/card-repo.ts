import type { Insertable } from 'kysely';
import type { CardRow, CardTable } from '../schema.js';
import type { OwnerScope } from './domain-repo.js';
import type { Queryable } from './queryable.js';

/** A card with the name of the domain it redeems on (null: any open domain, or one deleted since). */
export type CardWithDomainRow = CardRow & { domain_name: string | null };

/** What narrows a list of cards: whose cards, and optionally a status and a batch. */
export interface CardFilter {
  scope: OwnerScope;
  status?: CardRow['status'];
  batchId?: string;
}

/** Cards joined to their domain's name, narrowed to `filter`. */
function cardsWithDomain(db: Queryable, filter: CardFilter) {
  let query = db.selectFrom('cards').leftJoin('domains', 'domains.id', 'cards.domain_id');
  if (filter.scope.kind === 'owner') query = query.where('cards.owner_id', '=', filter.scope.ownerId);
  if (filter.status) query = query.where('cards.status', '=', filter.status);
  if (filter.batchId !== undefined) query = query.where('cards.batch_id', '=', filter.batchId);
  return query;
}

/** One page of the cards matching `filter`, newest first. */
export async function listCards(
  db: Queryable,
  filter: CardFilter,
  page: { limit: number; offset: number },
): Promise<CardWithDomainRow[]> {
  return cardsWithDomain(db, filter)
    .selectAll('cards')
    .select('domains.name as domain_name')
    .orderBy('cards.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countCards(db: Queryable, filter: CardFilter): Promise<number> {
  const { count } = await cardsWithDomain(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Every card of a batch within `scope`, in the order they were made. */
export async function listCardsOfBatch(
  db: Queryable,
  scope: OwnerScope,
  batchId: string,
): Promise<CardWithDomainRow[]> {
  return cardsWithDomain(db, { scope, batchId })
    .selectAll('cards')
    .select('domains.name as domain_name')
    .orderBy('cards.id')
    .execute();
}

/** One card within `scope`, or undefined. */
export async function findCardInScope(
  db: Queryable,
  scope: OwnerScope,
  id: number,
): Promise<CardWithDomainRow | undefined> {
  return cardsWithDomain(db, { scope })
    .selectAll('cards')
    .select('domains.name as domain_name')
    .where('cards.id', '=', id)
    .executeTakeFirst();
}

/** A generation batch: how many cards, how many unused, its note and when it was made. */
export interface CardBatchRow {
  batch_id: string;
  count: number;
  unused: number | null;
  note: string | null;
  created_at: number | null;
}

/** The batches within `scope`, newest first, at most `limit`. */
export async function listCardBatches(
  db: Queryable,
  scope: OwnerScope,
  limit: number,
): Promise<CardBatchRow[]> {
  let query = db
    .selectFrom('cards')
    .select((eb) => [
      'batch_id',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'unused').then(1).else(0).end()).as('unused'),
      eb.fn.max('note').as('note'),
      eb.fn.min('created_at').as('created_at'),
    ])
    .groupBy('batch_id')
    .orderBy('created_at', 'desc')
    .limit(limit);
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  return query.execute();
}

export async function insertCards(db: Queryable, rows: Omit<Insertable<CardTable>, 'id'>[]): Promise<void> {
  await db.insertInto('cards').values(rows).execute();
}

/**
 * Changes a card's note and (when given) its status; a status change applies only while the card
 * is not used, so a redemption that just won keeps its card "used". False when nothing changed.
 */
export async function updateCardNoteOrStatus(
  db: Queryable,
  id: number,
  changes: { status?: 'unused' | 'disabled'; note?: string },
): Promise<boolean> {
  let update = db.updateTable('cards').set(changes).where('id', '=', id);
  if (changes.status) update = update.where('status', '!=', 'used');
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** How many of the cards `ids` are within `scope`. */
export async function countCardsInScope(db: Queryable, scope: OwnerScope, ids: number[]): Promise<number> {
  let query = db
    .selectFrom('cards')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('id', 'in', ids);
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  const { count } = await query.executeTakeFirstOrThrow();
  return Number(count);
}

/** Deletes the cards `ids`; returns how many went. */
export async function deleteCards(db: Queryable, ids: number[]): Promise<number> {
  const result = await db.deleteFrom('cards').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The card whose normalised code hashes to `codeHash`, or undefined. */
export async function findCardByCodeHash(db: Queryable, codeHash: string): Promise<CardRow | undefined> {
  return db.selectFrom('cards').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/**
 * Marks an unused card used, in one conditional UPDATE; false when another redemption got there
 * first (or the card is disabled), so a code works once however many requests race.
 */
export async function markCardUsedIfUnused(
  db: Queryable,
  id: number,
  use: { usedBy: string; usedAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('cards')
    .set({ status: 'used', used_by: use.usedBy, used_at: use.usedAt })
    .where('id', '=', id)
    .where('status', '=', 'unused')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
