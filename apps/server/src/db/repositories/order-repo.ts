import type { Insertable } from 'kysely';
import type { OrderRow, OrderTable } from '../schema.js';
import type { OwnerScope } from './domain-repo.js';
import type { Queryable } from './queryable.js';

/**
 * Whether a store order still holds `address` at `now`: paid and awaiting delivery, or unpaid and
 * not yet expired.
 */
export async function orderHoldsAddress(db: Queryable, address: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('address', '=', address)
    .where((eb) =>
      eb.or([eb('status', '=', 'paid'), eb.and([eb('status', '=', 'pending'), eb('expires_at', '>', now)])]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** The owner's unpaid orders not yet expired at `now` (each holds a mailbox of its stock). */
export async function countPendingOrdersOfOwner(
  db: Queryable,
  ownerId: number,
  now: number,
): Promise<number> {
  const { count } = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Unpaid orders whose time ran out at `now` become expired. */
export async function expireOverdueOrders(db: Queryable, now: number): Promise<void> {
  await db
    .updateTable('orders')
    .set({ status: 'expired' })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .execute();
}

export async function findOrderByNo(db: Queryable, orderNo: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
}

/** An order the caller knows exists; throws otherwise. */
export async function getOrderByNo(db: Queryable, orderNo: string): Promise<OrderRow> {
  return db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
}

/**
 * Records the payment of an order still pending (or expired unpaid), in one conditional UPDATE;
 * false when it had moved on already (paid, delivered or cancelled), so only one payment counts.
 */
export async function markOrderPaidIfPending(
  db: Queryable,
  orderNo: string,
  payment: { paidAt: number; tradeNo: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'paid', paid_at: payment.paidAt, trade_no: payment.tradeNo })
    .where('order_no', '=', orderNo)
    .where('status', 'in', ['pending', 'expired'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Notes why a paid order could not be delivered; returns the order as it now is. */
export async function recordOrderFailure(db: Queryable, id: number, failure: string): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({ failure })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A paid order got its mailbox; returns the order as it now is. */
export async function markOrderDelivered(
  db: Queryable,
  id: number,
  delivery: { mailboxId: number; deliveredAt: number },
): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({
      status: 'delivered',
      mailbox_id: delivery.mailboxId,
      delivered_at: delivery.deliveredAt,
      failure: null,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Cancels an order not paid yet (pending or expired), in one conditional UPDATE; false otherwise. */
export async function cancelOrderIfUnpaid(db: Queryable, id: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'cancelled' })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'expired'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countPendingOrdersOfPhone(db: Queryable, phone: string): Promise<number> {
  const { count } = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('phone', '=', phone)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Stores a new order; a unique violation means its number or (live orders) its address is taken. */
export async function insertOrder(
  db: Queryable,
  values: Omit<Insertable<OrderTable>, 'id'>,
): Promise<OrderRow> {
  return db.insertInto('orders').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A phone's latest orders, newest first. */
export async function listOrdersOfPhone(db: Queryable, phone: string, limit: number): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('phone', '=', phone)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** What narrows a list of orders: whose domains, and optionally a status and a phone. */
export interface OrderFilter {
  scope: OwnerScope;
  status?: OrderRow['status'];
  phone?: string;
}

function filteredOrders(db: Queryable, filter: OrderFilter) {
  let query = db.selectFrom('orders');
  if (filter.scope.kind === 'owner') query = query.where('owner_id', '=', filter.scope.ownerId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.phone) query = query.where('phone', '=', filter.phone);
  return query;
}

/** One page of the orders matching `filter`, newest first. */
export async function listOrders(
  db: Queryable,
  filter: OrderFilter,
  page: { limit: number; offset: number },
): Promise<OrderRow[]> {
  return filteredOrders(db, filter)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countOrders(db: Queryable, filter: OrderFilter): Promise<number> {
  const { count } = await filteredOrders(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}
