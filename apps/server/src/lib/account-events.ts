import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EventTransport } from './event-transport.js';

/** The event channel for notices meant for one system account (JSON `{ accountId, name, data }`). */
export const ACCOUNT_CHANNEL = 'account';

export interface AccountEvent {
  /** the system account the notice is for; nobody else's stream shows it */
  accountId: number;
  /** the SSE event name (`order`) */
  name: string;
  data: unknown;
}

/**
 * Notices for one system account (a new order on its domain) that its open live streams show
 * (`GET user/events`, modules/mail). They travel by the deployment's event transport, like new mail,
 * so an order placed through one process reaches the owner's stream held by another. As with mail,
 * PostgreSQL's NOTIFY goes inside the transaction that makes the notice true (delivered on commit
 * only); the other transports are told after the commit. A notice that cannot be sent is lost,
 * never the order.
 */
export function createAccountEvents(transport: EventTransport) {
  return {
    /** Called inside the transaction that makes the notice true. */
    async publishInTransaction(trx: Transaction<Database>, event: AccountEvent): Promise<void> {
      if (!transport.publishesInTransaction) return;
      await transport.publish(ACCOUNT_CHANNEL, JSON.stringify(event), trx);
    },
    /** Called after the commit. */
    publishCommitted(event: AccountEvent): void {
      if (transport.publishesInTransaction) return;
      transport.publish(ACCOUNT_CHANNEL, JSON.stringify(event)).catch(() => {});
    },
    subscribe(listener: (event: AccountEvent) => void): () => void {
      return transport.subscribe(ACCOUNT_CHANNEL, (payload) => {
        let event: Partial<AccountEvent>;
        try {
          event = JSON.parse(payload) as Partial<AccountEvent>;
        } catch {
          return;
        }
        if (
          Number.isSafeInteger(event.accountId) &&
          typeof event.name === 'string' &&
          /^[a-z.]+$/.test(event.name)
        )
          listener(event as AccountEvent);
      });
    },
  };
}

export type AccountEvents = ReturnType<typeof createAccountEvents>;
