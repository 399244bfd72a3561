import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import type { Database, OutboundQueueRow, OutboundQueueTable } from '../schema.js';
import type { OwnerScope } from './domain-repo.js';
import type { Queryable } from './queryable.js';

/** What recording an attempt or settling a bounce changes on a queue row. */
export type OutboundQueueChanges = Updateable<OutboundQueueTable>;

/** The deliveries (one row per recipient) of the given sent items, in queue order. */
export async function listDeliveriesOfSentMessages(
  db: Queryable,
  sentIds: number[],
): Promise<OutboundQueueRow[]> {
  return db.selectFrom('outbound_queue').selectAll().where('sent_id', 'in', sentIds).orderBy('id').execute();
}

/** Queues the recipients of a sent item, one row each. */
export async function insertDeliveries(
  db: Queryable,
  rows: Omit<Insertable<OutboundQueueTable>, 'id'>[],
): Promise<void> {
  await db.insertInto('outbound_queue').values(rows).execute();
}

/** Cancels the deliveries of the given sent items (they are being deleted). */
export async function deleteDeliveriesOfSentMessages(db: Queryable, sentIds: number[]): Promise<void> {
  await db.deleteFrom('outbound_queue').where('sent_id', 'in', sentIds).execute();
}

/** Rows due at `now`: queued or retrying and their time has come, or sending under a lease that ran out. */
function due(now: number) {
  return (eb: ExpressionBuilder<Database, 'outbound_queue'>) =>
    eb.or([
      eb.and([eb('status', 'in', ['queued', 'retrying']), eb('next_attempt_at', '<=', now)]),
      eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)]),
    ]);
}

/** Up to `limit` rows due at `now`, the longest waiting first. */
export async function listDueDeliveries(
  db: Queryable,
  now: number,
  limit: number,
): Promise<Pick<OutboundQueueRow, 'id' | 'sent_id' | 'rcpt'>[]> {
  return db
    .selectFrom('outbound_queue')
    .select(['id', 'sent_id', 'rcpt'])
    .where(due(now))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * Puts the rows among `ids` that are due at `now` under `lease` until `leaseUntil`, counting an
 * attempt, in one conditional UPDATE: a row another process holds is left alone.
 */
export async function leaseDueDeliveries(
  db: Queryable,
  ids: number[],
  lease: { owner: string; until: number; now: number },
): Promise<void> {
  await db
    .updateTable('outbound_queue')
    .set((eb) => ({
      status: 'sending',
      lease_owner: lease.owner,
      lease_until: lease.until,
      attempts: eb('attempts', '+', 1),
      updated_at: lease.now,
    }))
    .where('id', 'in', ids)
    .where(due(lease.now))
    .execute();
}

/** A leased delivery with what delivering it needs from its sent item. */
export interface LeasedDelivery {
  id: number;
  rcpt: string;
  sentId: number;
  from: string;
  size: number;
}

/** The rows among `ids` that `leaseOwner` holds, in queue order. */
export async function listLeasedDeliveries(
  db: Queryable,
  ids: number[],
  leaseOwner: string,
): Promise<LeasedDelivery[]> {
  return db
    .selectFrom('outbound_queue')
    .innerJoin('sent_messages', 'sent_messages.id', 'outbound_queue.sent_id')
    .select([
      'outbound_queue.id',
      'outbound_queue.rcpt',
      'sent_messages.id as sentId',
      // The envelope sender: SRS0 for a forwarded copy, empty for a returned bounce (migration 053).
      (eb) => eb.fn.coalesce('sent_messages.envelope_from', 'sent_messages.from_address').as('from'),
      'sent_messages.size',
    ])
    .where('outbound_queue.id', 'in', ids)
    .where('outbound_queue.lease_owner', '=', leaseOwner)
    .orderBy('outbound_queue.id')
    .execute();
}

/** How often a delivery was tried, and when it was queued. */
export async function findDeliveryAttempts(
  db: Queryable,
  id: number,
): Promise<Pick<OutboundQueueRow, 'attempts' | 'created_at'> | undefined> {
  return db
    .selectFrom('outbound_queue')
    .select(['attempts', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Records an attempt's outcome and ends the lease, only while `leaseOwner` still holds the row. */
export async function recordDeliveryIfLeased(
  db: Queryable,
  id: number,
  leaseOwner: string,
  changes: OutboundQueueChanges,
): Promise<void> {
  await db
    .updateTable('outbound_queue')
    .set({ ...changes, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', leaseOwner)
    .execute();
}

/** Up to `limit` sent items with a bounce due at `now`. */
export async function listSentIdsWithDueBounces(
  db: Queryable,
  now: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('outbound_queue')
    .select('sent_id')
    .distinct()
    .where('bounce_state', '=', 'pending')
    .where('bounce_due_at', '<=', now)
    .limit(limit)
    .execute();
  return rows.map((row) => row.sent_id);
}

/**
 * Claims the due pending bounces of a sent item for `owner` until `until`, counting an attempt, in
 * one conditional UPDATE.
 */
export async function claimDueBounces(
  db: Queryable,
  sentId: number,
  claim: { owner: string; until: number; now: number },
): Promise<void> {
  await db
    .updateTable('outbound_queue')
    .set((eb) => ({
      bounce_owner: claim.owner,
      bounce_due_at: claim.until,
      bounce_attempts: eb('bounce_attempts', '+', 1),
    }))
    .where('sent_id', '=', sentId)
    .where('bounce_state', '=', 'pending')
    .where('bounce_due_at', '<=', claim.now)
    .execute();
}

/** A failed recipient whose bounce is claimed, with what the bounce reports. */
export type ClaimedBounce = Pick<
  OutboundQueueRow,
  | 'id'
  | 'rcpt'
  | 'attempts'
  | 'last_error'
  | 'last_reply'
  | 'remote_mta'
  | 'failure_status'
  | 'updated_at'
  | 'bounce_attempts'
>;

/** The pending bounces of a sent item that `owner` claimed, in queue order. */
export async function listClaimedBounces(
  db: Queryable,
  sentId: number,
  owner: string,
): Promise<ClaimedBounce[]> {
  return db
    .selectFrom('outbound_queue')
    .select([
      'id',
      'rcpt',
      'attempts',
      'last_error',
      'last_reply',
      'remote_mta',
      'failure_status',
      'updated_at',
      'bounce_attempts',
    ])
    .where('sent_id', '=', sentId)
    .where('bounce_owner', '=', owner)
    .where('bounce_state', '=', 'pending')
    .orderBy('id')
    .execute();
}

/**
 * Applies `changes` to claimed pending bounces and releases the claim, only while it is still
 * `owner`'s; returns how many rows moved.
 */
export async function settleClaimedBounces(
  db: Queryable,
  owner: string,
  ids: number[],
  changes: OutboundQueueChanges,
): Promise<number> {
  const result = await db
    .updateTable('outbound_queue')
    .set({ bounce_owner: null, ...changes })
    .where('id', 'in', ids)
    .where('bounce_owner', '=', owner)
    .where('bounce_state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---- dashboard figures ----

/** The queue joined to its sent items, within `scope` (by the sent item's account). */
function deliveriesInScope(db: Queryable, scope: OwnerScope) {
  const query = db
    .selectFrom('outbound_queue')
    .innerJoin('sent_messages', 'sent_messages.id', 'outbound_queue.sent_id');
  return scope.kind === 'owner' ? query.where('sent_messages.account_id', '=', scope.ownerId) : query;
}

/** Recipients within `scope` still waiting: queued, being sent or to be retried. */
export async function countWaitingDeliveries(db: Queryable, scope: OwnerScope): Promise<number> {
  const row = await deliveriesInScope(db, scope)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('outbound_queue.status', 'in', ['queued', 'sending', 'retrying'])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How the deliveries of messages sent within `scope` since `since` ended, counted per final status. */
export async function countFinishedDeliveriesByStatus(
  db: Queryable,
  scope: OwnerScope,
  since: number,
): Promise<{ status: OutboundQueueRow['status']; count: number }[]> {
  return deliveriesInScope(db, scope)
    .select(['outbound_queue.status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('sent_messages.created_at', '>=', since)
    .where('outbound_queue.status', 'in', ['delivered', 'failed'])
    .groupBy('outbound_queue.status')
    .execute();
}

/** Recipients still waiting in the whole queue, per status (the queue-depth metric). */
export async function countWaitingDeliveriesByStatus(
  db: Queryable,
): Promise<{ status: OutboundQueueRow['status']; count: number }[]> {
  const rows = await db
    .selectFrom('outbound_queue')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('status', 'in', ['queued', 'sending', 'retrying'])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}
