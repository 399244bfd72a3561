import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';

/** Most messages one commit carries. */
const MAX_BATCH = 64;
/**
 * Longest a queued job waits for deliveries still being prepared (a large message being parsed)
 * before its batch commits without them.
 */
const MAX_WAIT_MS = 20;

type Job<T> = {
  work: (trx: Transaction<Database>) => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

/** A place in an upcoming commit, taken before the work that leads to it (see `reserve`). */
export interface CommitSlot {
  run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** Gives the place back when the delivery ends without `run` (refused, failed); idempotent. */
  release(): void;
}

/**
 * Group commit for SQLite. Every commit there is an fsync that blocks its thread (better-sqlite3 is
 * synchronous), so messages are stored together: one transaction, one fsync, each message in its
 * own savepoint so that one failing (a quota reached in the meantime) rolls back alone. A job's
 * promise settles only after the commit that holds it, so nothing is acknowledged before it is on
 * disk, exactly as with a transaction per message. With `durable` (the store worker: its
 * connection's commits do not sync, db/wal-sync.ts) the promise settles after the commit and the
 * sync of the WAL that follows it; the next batch is prepared and committed during that sync.
 *
 * When to commit: a delivery reserves its place when it starts (before parsing and filtering). A
 * batch commits once every reserved delivery has either queued its work or given its place back,
 * so the messages being prepared at the same time share one commit instead of each committing
 * alone the moment it is ready (on one thread nothing else runs during a commit, so without the
 * reservations the next message always found the queue empty). MAX_WAIT_MS bounds the wait for a
 * slow one.
 */
export function createGroupCommit(
  db: Kysely<Database>,
  options: {
    maxWaitMs?: number;
    /**
     * Makes what was committed durable (`DatabaseHandle.syncWal`, on a connection whose commits
     * do not sync). Jobs settle only once it resolved; the next batch commits meanwhile.
     */
    durable?: (() => Promise<void>) | null;
  } = {},
) {
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  const durable = options.durable ?? null;
  const pending: Job<unknown>[] = [];
  let preparing = 0;
  let running = false;
  let timer: NodeJS.Timeout | null = null;

  /** Commits a batch; returns how its jobs settle once the commit is durable. */
  async function runBatch(batch: Job<unknown>[]): Promise<() => void> {
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
      return () => {
        for (const job of batch) job.reject(error);
      };
    }
    return () =>
      batch.forEach((job, index) => {
        const outcome = outcomes[index];
        if (outcome?.ok) job.resolve(outcome.value);
        else job.reject(outcome?.error ?? new Error('lost in a group commit'));
      });
  }

  /**
   * Settles a committed batch, after the sync that makes it durable when the connection leaves that
   * to us. Should the sync fail, nothing of the batch is acknowledged (the senders try again; the
   * rows may survive, so a message can then arrive twice, never be lost).
   */
  function settle(batch: Job<unknown>[], outcomes: () => void): void {
    if (!durable) {
      outcomes();
      return;
    }
    durable().then(outcomes, (error: unknown) => {
      for (const job of batch) job.reject(error);
    });
  }

  async function drain(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (running || pending.length === 0) return;
    running = true;
    try {
      const batch = pending.splice(0, MAX_BATCH);
      settle(batch, await runBatch(batch));
    } finally {
      running = false;
    }
    // What was queued meanwhile commits next, as soon as it no longer waits for others.
    considerCommit();
  }

  function considerCommit(): void {
    if (running || pending.length === 0) return;
    if (preparing === 0 || pending.length >= MAX_BATCH) {
      // After the I/O at hand: messages that arrived together (one read of a socket or a worker's
      // message port) reserve their places before the batch closes.
      setImmediate(() => void drain());
      return;
    }
    timer ??= setTimeout(() => void drain(), maxWaitMs);
  }

  function enqueue<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      pending.push({ work, resolve, reject } as Job<unknown>);
      considerCommit();
    });
  }

  return {
    /** Takes a place in an upcoming commit for a delivery that is about to be prepared. */
    reserve(): CommitSlot {
      preparing++;
      let held = true;
      const leave = () => {
        if (!held) return false;
        held = false;
        preparing--;
        return true;
      };
      return {
        run(work) {
          leave();
          return enqueue(work);
        },
        release() {
          if (leave()) considerCommit();
        },
      };
    },

    /** Runs `work` in a transaction shared with the messages queued beside it; resolves after the commit. */
    run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return enqueue(work);
    },
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;
