import type { Transaction } from 'kysely';
import type { Engine } from '../../db/database.js';
import { enqueueMailDeliveries, enqueueOwnerEventDeliveries } from '../../db/repositories/webhook-repo.js';
import type { Database } from '../../db/schema.js';

/**
 * What the inbound service runs inside the transaction that stores new mail: the webhook and
 * Telegram deliveries of the messages, queued in the same commit, so mail acknowledged with 250 can
 * never lose them (a crash before the commit stores neither). One INSERT…SELECT per stored message.
 */
export function webhookEnqueuer(engine: Engine) {
  return async (trx: Transaction<Database>, messageIds: number[]): Promise<void> => {
    await enqueueMailDeliveries(trx, engine, messageIds, Date.now());
  };
}

/**
 * What the orders module runs inside the transaction that stores a new order: `order.created` for
 * the domain owner's webhooks and Telegram, queued in the same commit.
 */
export function ownerEventEnqueuer(engine: Engine) {
  return async (trx: Transaction<Database>, ownerId: number, notice: { event: 'order.created' }) => {
    await enqueueOwnerEventDeliveries(
      trx,
      engine,
      { ownerId, name: notice.event, payload: JSON.stringify(notice) },
      Date.now(),
    );
  };
}
