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
 * so an order placed through one process reaches the owner's stream held by another. Published
 * after the commit that made them true; a notice that cannot be sent is lost (the order is not).
 */
export function createAccountEvents(transport: EventTransport) {
  return {
    publish(event: AccountEvent): void {
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
