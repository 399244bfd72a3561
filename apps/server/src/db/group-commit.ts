import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';

/** Most messages one commit carries. */
const MAX_BATCH = 64;

type Job<T> = {
  work: (trx: Transaction<Database>) => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

/**
 * Group commit for SQLite. Every commit there is an fsync that blocks the process (better-sqlite3
 * is synchronous), so messages that arrive while one commit is under way are stored together by
 * the next: one transaction, one fsync, each message in its own savepoint so that one failing
 * (a quota reached in the meantime) rolls back alone. A job's promise settles only after the
 * commit that holds it, so nothing is acknowledged before it is on disk, exactly as with a
 * transaction per message.
 */
export function createGroupCommit(db: Kysely<Database>) {
  const pending: Job<unknown>[] = [];
  let running = false;

  async function runBatch(batch: Job<unknown>[]): Promise<void> {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const job of batch) {
          await sql`savepoint message`.execute(trx);
          try {
            outcomes.push({ ok: true, value: await job.work(trx) });
            await sql`release savepoint message`.execute(trx);
          } catch (error) {
            await sql`rollback to savepoint message`.execute(trx);
            await sql`release savepoint message`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: none of the batch is stored.
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) job.resolve(outcome.value);
      else job.reject(outcome?.error ?? new Error('lost in a group commit'));
    });
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (pending.length > 0) await runBatch(pending.splice(0, MAX_BATCH));
    } finally {
      running = false;
    }
  }

  return {
    /** Runs `work` in a transaction shared with the messages queued beside it; resolves after the commit. */
    run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ work, resolve, reject } as Job<unknown>);
        if (!running) void drain();
      });
    },
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;
