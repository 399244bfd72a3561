import { type Kysely, sql } from 'kysely';

/**
 * Store clarity and order notifications (modules/domains, modules/orders, modules/webhooks).
 * - `webhook_deliveries.payload`: the JSON body of an event that is not about a stored message
 *   (`order.created`). It is written when the order is placed, so the queue delivers what was true
 *   then, and it holds nothing secret (no password, the buyer's phone masked). Mail deliveries keep
 *   reading their message when they are sent (payload null).
 * - A domain for sale must have a price above zero (domain-service `refuseUnclearOffer`). Rows
 *   made before that rule with a price of 0 are taken off sale rather than left selling for ¥0;
 *   their owners see "不出售" and can set a price. Pending orders on them are untouched
 *   (confirmOrder and payment notices do not read `for_sale`). Rows both for sale and open for free
 *   registration stay as they are: the store now says so beside them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('payload', 'text').execute();
  await sql`update domains set for_sale = 0 where for_sale = 1 and price <= 0`.execute(db);
}
