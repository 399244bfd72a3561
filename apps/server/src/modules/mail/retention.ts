import type { FastifyInstance } from 'fastify';

const INTERVAL_MS = 60 * 60 * 1000;
const FIRST_RUN_MS = 60 * 1000;

/**
 * Runs the retention purge (old mail, expired temporary mailboxes) in the background: shortly
 * after start, then hourly. The timers never keep the process alive and stop when the app closes.
 * With several processes each purges; the deletes are idempotent.
 */
export function startRetention(app: FastifyInstance): void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      // On the store worker, off this thread (message-store.ts).
      const result = await app.messageStore.purge();
      if (result.messages > 0 || result.mailboxes > 0) {
        app.log.info(
          `retention: removed ${result.messages} messages and ${result.mailboxes} expired mailboxes`,
        );
      }
    } catch (error) {
      app.log.warn({ err: error }, 'retention purge failed; will retry');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), FIRST_RUN_MS);
  const interval = setInterval(() => void run(), INTERVAL_MS);
  first.unref();
  interval.unref();
  app.addHook('preClose', async () => {
    clearTimeout(first);
    clearInterval(interval);
  });
}
