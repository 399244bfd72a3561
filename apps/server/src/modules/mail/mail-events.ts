import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventTransport } from '../../lib/event-transport.js';

/** The event channel carrying the ids of newly stored messages (JSON array). */
export const MAIL_CHANNEL = 'mail';

export type NewMailListener = (messageIds: number[]) => void;

/**
 * "New mail" notifications for the live inbox (server-sent events), IMAP IDLE, long polls and the
 * webhook worker. They travel by the deployment's event transport (`lib/event-transport.ts`):
 * PostgreSQL LISTEN/NOTIFY, Redis publish/subscribe when `REDIS_URL` is set, or in this process
 * (SQLite). A NOTIFY is issued inside the storing transaction, and PostgreSQL delivers it only on
 * commit (never for mail that was rolled back); the other transports are told after the commit.
 */
export function createMailEvents(transport: EventTransport) {
  return {
    /** Starts receiving (LISTEN, SUBSCRIBE); safe to call more than once. */
    start: () => transport.start(),

    /** Called inside the storing transaction. */
    async announceInTransaction(trx: Transaction<Database>, messageIds: number[]): Promise<void> {
      if (!transport.publishesInTransaction || messageIds.length === 0) return;
      await transport.publish(MAIL_CHANNEL, JSON.stringify(messageIds), trx);
    },

    /** Called after the commit. Never fails: an event that cannot be sent is lost, not the mail. */
    announceCommitted(messageIds: number[]): void {
      if (transport.publishesInTransaction || messageIds.length === 0) return;
      transport.publish(MAIL_CHANNEL, JSON.stringify(messageIds)).catch(() => {});
    },

    subscribe(listener: NewMailListener): () => void {
      return transport.subscribe(MAIL_CHANNEL, (payload) => {
        let ids: unknown;
        try {
          ids = JSON.parse(payload);
        } catch {
          return; // not ours
        }
        if (Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id))) listener(ids as number[]);
      });
    },

    close: () => transport.close(),
  };
}

export type MailEvents = ReturnType<typeof createMailEvents>;
