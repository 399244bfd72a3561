import { Worker } from 'node:worker_threads';
import { compiledScript } from '../lib/compiled-script.js';
import { DeliveryError, type DeliveryFailure, type Envelope, type Spool } from '../modules/mail/index.js';

/** What the SMTP listener hands to the store worker: one spooled message and its envelope. */
export interface StoreRequest {
  kind: 'store';
  id: number;
  /** the spool file (large messages), or null when the bytes travel with the request */
  path: string | null;
  bytes: Uint8Array | null;
  size: number;
  sha256: string;
  envelope: Envelope;
}

/** The retention purge (modules/mail/retention.ts), run by the worker with its own connection. */
export interface PurgeRequest {
  kind: 'purge';
  id: number;
}

/** What the purge removed. */
export interface PurgeResult {
  messages: number;
  mailboxes: number;
}

/** The worker's answer, sent only after the commit that stored the message (or its failure). */
export type StoreReply =
  | { kind: 'stored'; id: number; messageIds: number[]; discarded: boolean }
  | { kind: 'failed'; id: number; failure: DeliveryFailure; message: string }
  | ({ kind: 'purged'; id: number } & PurgeResult)
  | { kind: 'purgeFailed'; id: number; message: string }
  | { kind: 'log'; level: 'info' | 'warn' | 'error'; message: string; context?: Record<string, unknown> };

export interface StoreWorkerData {
  databaseUrl: string | null;
  dataDir: string;
  /** where SPF, DKIM and DMARC ask (DNS_SERVERS; the system's resolvers when empty) */
  dnsServers: string[];
  /** the authserv-id of the Authentication-Results header stored with inbound mail */
  mailHostname: string;
  /**
   * PostgreSQL without REDIS_URL: the worker announces new mail by a NOTIFY inside its storing
   * transaction. Otherwise the main thread announces it after the worker's reply (SMTP listener).
   */
  notifyInTransaction: boolean;
}

/** pino's calling convention: a message, or the fields of the line and then the message */
interface Logger {
  info(message: string): void;
  info(context: Record<string, unknown>, message: string): void;
  warn(message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(message: string): void;
  error(context: Record<string, unknown>, message: string): void;
}

export interface MessageStore {
  /** Stores a spooled message; resolves after the commit, rejects with a DeliveryError. */
  deliver(spool: Spool, envelope: Envelope): Promise<{ messageIds: number[]; discarded: boolean }>;
  /**
   * Runs the retention purge on the worker: deleting mail is the costliest write there is (each
   * message leaves the search indexes, which tokenize it again) and, on SQLite, synchronous. On
   * the main thread a purge of tens of thousands of messages held HTTP and SMTP for as long as
   * each batch's transaction took (up to 1.6 s with the checkpoint its commit ran).
   */
  purge(): Promise<PurgeResult>;
  /** Lets the messages in flight finish, then ends the worker. */
  close(): Promise<void>;
}

/**
 * The worker starts with the first message to store, or this long after the app, whichever comes
 * first: on SQLite it also keeps the search index up with mail stored elsewhere (IMAP APPEND, local
 * delivery; search reads what is not indexed yet directly, so it is right meanwhile, only slower).
 * Starting it loads the program's modules again in a new V8 heap, about 1.4 s of CPU: a server
 * that starts and stops without taking mail (the hundreds the test suite starts; a CLI command)
 * does not pay it, and the first message waits for it once.
 */
const STARTUP_DELAY_MS = 5_000;

/** Pause before a worker that ended unasked is started again. */
const RESTART_DELAY_MS = 1_000;

/** How long close() waits for the messages in flight, and then for the worker to end on its own. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * The worker's young generation. V8 sizes it for throughput by default (up to 3 × 16 MiB on 64-bit
 * machines, resident once touched); what the worker allocates per message dies young and is a few
 * hundred KiB, so a small one costs a scavenge now and then and saves tens of MiB of memory. 12 MiB
 * (a 4 MiB semi-space): under smtp-source's 20 sessions, 6 MiB took 0.3 ms more CPU a message in
 * scavenges of the messages in flight, and saved no measurable peak RSS. The old generation keeps
 * V8's limit: a large message is parsed here whole.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 12 };

/**
 * Inbound mail is stored on a worker thread (store-worker.ts) with its own database connection:
 * MIME parsing, content filters, the inserts and the commit with its fsync (synchronous in
 * better-sqlite3) run there, on another core, while this thread keeps serving SMTP and HTTP.
 * Replies come back after the commit, so "250" still means "durable". Should the worker die, the
 * messages in flight fail with a temporary error (the senders retry) and a new worker starts.
 * The worker starts with the first message or a few seconds after the app (STARTUP_DELAY_MS).
 */
export function startMessageStore(data: StoreWorkerData, log: Logger): MessageStore {
  const pending = new Map<
    number,
    { resolve: (value: { messageIds: number[]; discarded: boolean }) => void; reject: (error: Error) => void }
  >();
  const purges = new Map<number, { resolve: (value: PurgeResult) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let worker: Worker | null = null;
  let closing: Promise<void> | null = null;
  let restart: NodeJS.Timeout | null = null;

  function failAll(reason: string): void {
    for (const job of pending.values()) job.reject(new DeliveryError('storage', reason));
    pending.clear();
    for (const job of purges.values()) job.reject(new Error(reason));
    purges.clear();
  }

  function start(): Worker {
    const thread = new Worker(compiledScript(import.meta.url, './store-worker.js'), {
      workerData: data,
      resourceLimits: WORKER_LIMITS,
    });
    thread.on('message', (reply: StoreReply) => {
      if (reply.kind === 'log') {
        if (reply.context) log[reply.level](reply.context, reply.message);
        else log[reply.level](reply.message);
        return;
      }
      if (reply.kind === 'purged' || reply.kind === 'purgeFailed') {
        const purge = purges.get(reply.id);
        purges.delete(reply.id);
        if (reply.kind === 'purged') purge?.resolve({ messages: reply.messages, mailboxes: reply.mailboxes });
        else purge?.reject(new Error(reply.message));
        return;
      }
      const job = pending.get(reply.id);
      if (!job) return;
      pending.delete(reply.id);
      if (reply.kind === 'stored') job.resolve({ messageIds: reply.messageIds, discarded: reply.discarded });
      else job.reject(new DeliveryError(reply.failure, reply.message));
    });
    thread.on('error', (error) => {
      log.error(`store worker failed: ${error.message}`);
    });
    thread.on('exit', (code) => {
      if (worker === thread) worker = null;
      if (pending.size > 0)
        log.error(`store worker ended (exit ${code}) with ${pending.size} messages in flight`);
      failAll('store worker ended');
      // Not asked to end: start again, after a pause should it fail at once again.
      if (!closing) restart = setTimeout(() => (worker ??= start()), RESTART_DELAY_MS).unref();
    });
    // The worker may sit idle; it must not keep the process alive on its own.
    thread.unref();
    return thread;
  }

  // Started by the first message, or a few seconds after the app, whichever comes first (see
  // STARTUP_DELAY_MS).
  let startup: NodeJS.Timeout | null = setTimeout(() => {
    startup = null;
    if (!closing) worker ??= start();
  }, STARTUP_DELAY_MS);
  startup.unref();
  return {
    deliver(spool, envelope) {
      if (closing) return Promise.reject(new DeliveryError('storage', 'store closing'));
      worker ??= start();
      const id = nextId++;
      const { bytes } = spool;
      // A buffer that owns its memory whole moves to the worker without a copy; a slice of a shared
      // pool is copied.
      const movable =
        bytes !== null && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const request: StoreRequest = {
        kind: 'store',
        id,
        path: spool.path,
        bytes,
        size: spool.size,
        sha256: spool.sha256,
        envelope,
      };
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker?.postMessage(request, movable ? [bytes.buffer as ArrayBuffer] : []);
      });
    },

    purge() {
      if (closing) return Promise.reject(new Error('store closing'));
      worker ??= start();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        purges.set(id, { resolve, reject });
        worker?.postMessage({ kind: 'purge', id } satisfies PurgeRequest);
      });
    },

    close() {
      closing ??= (async () => {
        if (restart) clearTimeout(restart);
        if (startup) clearTimeout(startup);
        const deadline = Date.now() + CLOSE_TIMEOUT_MS;
        while (pending.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        const thread = worker;
        if (!thread) return;
        const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
        thread.postMessage({ kind: 'close' });
        const timer = setTimeout(() => void thread.terminate(), CLOSE_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
