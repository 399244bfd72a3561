import { createSubscribers, type EventTransport } from './event-transport.js';
import type { RedisConnection, RedisLog } from './redis.js';

/** How long start() waits for the first subscription before the server goes on without it. */
const FIRST_SUBSCRIBE_WAIT_MS = 3_000;

/** Redis's channel for one of ours; every key and channel of Youju starts with `youju:`. */
export const redisChannelName = (channel: string) => `youju:events:${channel}`;

/**
 * Events by Redis publish/subscribe (`REDIS_URL`), for several processes (on any engine). Events
 * are published after the commit that makes them true, on the shared command connection;
 * `subscriber` is a connection of its own (a subscribed connection takes no other command).
 * After Redis comes back the subscriber subscribes again and events resume; events published while
 * it was away are lost to the processes that missed them (the mail is stored: an open inbox shows
 * it at its next refresh). When publishing fails, this process's own subscribers still get the
 * event, so one process keeps its live inbox through an outage.
 */
export function redisEventTransport(
  commands: RedisConnection,
  subscriber: RedisConnection,
  channels: readonly string[],
  log: RedisLog,
): EventTransport {
  const subscribers = createSubscribers();
  const byName = new Map(channels.map((channel) => [redisChannelName(channel), channel]));
  let subscribed: Promise<void> | null = null;
  let publishFailing = false;

  const client = subscriber.client;
  client.on('message', (name: string, payload: string) => {
    const channel = byName.get(name);
    if (channel) subscribers.deliver(channel, payload);
  });

  /** The newest SUBSCRIBE sent, settled either way. */
  let lastSubscribe: Promise<void> | null = null;
  function subscribe(): Promise<void> {
    lastSubscribe = client.subscribe(...byName.keys()).then(
      () => {},
      (error: Error) => log.warn(`redis (events): cannot subscribe yet (${error.message})`),
    );
    return lastSubscribe;
  }
  // Every (re)connection subscribes anew: ioredis's own resubscription only knows channels whose
  // first SUBSCRIBE succeeded, and a server that was down at start never had one.
  client.on('ready', () => {
    void subscribe();
  });

  /** Resolves once connected (or after `ms`), then once the SUBSCRIBE sent on connecting is answered. */
  async function firstSubscription(ms: number): Promise<void> {
    if (!subscriber.ready()) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          client.off('ready', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        timer.unref();
        client.on('ready', done);
      });
    }
    if (subscriber.ready()) await (lastSubscribe ?? subscribe());
  }

  return {
    publishesInTransaction: false,
    async publish(channel, payload) {
      const name = redisChannelName(channel);
      if (!byName.has(name)) throw new Error(`unknown event channel ${channel}`);
      try {
        await commands.client.publish(name, payload);
        publishFailing = false;
      } catch (error) {
        if (!publishFailing) log.warn(`redis (events): publish failed (${(error as Error).message})`);
        publishFailing = true;
        subscribers.deliver(channel, payload);
      }
    },
    subscribe: subscribers.subscribe,
    async start() {
      subscribed ??= firstSubscription(FIRST_SUBSCRIBE_WAIT_MS);
      await subscribed;
    },
    async close() {
      subscribers.clear();
      await subscriber.close();
    },
  };
}
