import { EventEmitter } from 'node:events';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

export type EventListener = (payload: string) => void;

/**
 * How events (new mail) reach every process of one deployment: in this process only (SQLite
 * without Redis), by PostgreSQL LISTEN/NOTIFY (`postgres-event-transport.ts`), or by Redis
 * publish/subscribe when `REDIS_URL` is set (`redis-event-transport.ts`). Channels are short names
 * ("mail"), fixed when the transport is made; the transport namespaces them.
 */
export interface EventTransport {
  /**
   * true when `publish` belongs inside the transaction that makes the event true (PostgreSQL: a
   * NOTIFY is delivered on commit, never on rollback); false when it belongs after the commit.
   */
  readonly publishesInTransaction: boolean;
  /** Sends `payload` to every subscriber of `channel` in every process (this one included). */
  publish(channel: string, payload: string, trx?: Transaction<Database>): Promise<void>;
  subscribe(channel: string, listener: EventListener): () => void;
  /** Starts receiving; safe to call more than once. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Subscribers of this process, by channel; what every transport hands received events to. */
export function createSubscribers() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    deliver(channel: string, payload: string): void {
      emitter.emit(channel, payload);
    },
    subscribe(channel: string, listener: EventListener): () => void {
      emitter.on(channel, listener);
      return () => emitter.off(channel, listener);
    },
    clear(): void {
      emitter.removeAllListeners();
    },
  };
}

/** One process (SQLite): events go to this process's subscribers, after the commit. */
export function localEventTransport(): EventTransport {
  const subscribers = createSubscribers();
  return {
    publishesInTransaction: false,
    async publish(channel, payload) {
      subscribers.deliver(channel, payload);
    },
    subscribe: subscribers.subscribe,
    async start() {},
    async close() {
      subscribers.clear();
    },
  };
}

/**
 * Sends nothing: for the store worker thread when the main thread announces its mail after the
 * reply (Redis; the worker holds no Redis connection of its own).
 */
export function silentEventTransport(): EventTransport {
  return {
    publishesInTransaction: false,
    async publish() {},
    subscribe: () => () => {},
    async start() {},
    async close() {},
  };
}
