/**
 * The store worker (see message-store.ts): a thread that stores inbound mail with its own database
 * connection, through the very `deliver` the rest of the program uses. It composes only what that
 * needs: settings, content filters, mail events (NOTIFY on PostgreSQL without Redis), the webhook
 * enqueue and the forwarded copies (both in the storing transaction) and the inbound service.
 * On SQLite it also keeps the search index up with new mail (db/search-index.ts).
 *
 * On SQLite this connection and the main thread's are two writers of one file: every transaction
 * takes the write lock when it begins (db/database.ts), and each waits for the other's commit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/database.js';
import { INDEX_BATCH, indexingWaits, indexNewMessages } from '../db/search-index.js';
import { EVENT_CHANNELS } from '../lib/cross-process.js';
import { silentEventTransport } from '../lib/event-transport.js';
import { postgresEventTransport } from '../lib/postgres-event-transport.js';
import { createFilterService } from '../modules/filters/index.js';
import { createForwardingHook } from '../modules/forwarding/index.js';
import {
  createInboundAuthenticator,
  createInboundService,
  createMailEvents,
  createMailService,
  DeliveryError,
} from '../modules/mail/index.js';
import { createSettingsService } from '../modules/settings/index.js';
import { webhookEnqueuer } from '../modules/webhooks/index.js';
import type { PurgeRequest, StoreReply, StoreRequest, StoreWorkerData } from './message-store.js';

if (!parentPort) throw new Error('store-worker.ts runs as a worker thread (message-store.ts starts it)');
const port = parentPort;
const data = workerData as StoreWorkerData;

const send = (reply: StoreReply) => port.postMessage(reply);
/** pino's calling convention (a message, or the line's fields then the message), sent to the main thread */
function logAt(level: 'info' | 'warn' | 'error') {
  function line(message: string): void;
  function line(context: Record<string, unknown>, message: string): void;
  function line(first: string | Record<string, unknown>, message?: string): void {
    if (typeof first === 'string') send({ kind: 'log', level, message: first });
    else send({ kind: 'log', level, message: message ?? '', context: first });
  }
  return line;
}
const log = { info: logAt('info'), warn: logAt('warn'), error: logAt('error') };

// A few connections are plenty for one thread (PostgreSQL; SQLite has one). On SQLite the group
// commit syncs the WAL itself, in the thread pool, instead of each commit blocking this thread on
// an fsync (db/wal-sync.ts): nothing is acknowledged before that sync.
//
// Its SQLite page cache is 2 MiB (SQLite's own default) instead of better-sqlite3's 16: this
// connection writes, and every page it writes stays in its cache, so under a stream of mail the
// cache filled to 16 MiB of pages it seldom reads again (the tails of the indexes are what it
// touches): 15–17 MiB of peak resident memory under `smtp-source -s 20 -m 3000`, no measurable
// CPU per message (bench/README.md). The main thread's connection, which answers the readers'
// queries, keeps the larger cache.
const STORE_PAGE_CACHE_KIB = 2048;
const database = openDatabase({
  databaseUrl: data.databaseUrl,
  dataDir: data.dataDir,
  poolSize: 4,
  log,
  walSync: 'caller',
  pageCacheKiB: STORE_PAGE_CACHE_KIB,
});
const settings = createSettingsService(database.db);
const forwarding = createForwardingHook({
  db: database.db,
  engine: database.engine,
  settings,
  mailHostname: data.mailHostname,
  log,
});
const inbound = createInboundService({
  db: database.db,
  engine: database.engine,
  dataDir: data.dataDir,
  settings,
  filters: createFilterService(database.db, database.engine, log),
  events: createMailEvents(
    data.notifyInTransaction && database.pool
      ? postgresEventTransport(database.pool, EVENT_CHANNELS, log)
      : silentEventTransport(),
  ),
  log,
  afterStore: webhookEnqueuer(database.engine),
  authenticator: createInboundAuthenticator({ dnsServers: data.dnsServers, mailHostname: data.mailHostname }),
  forwarding,
  syncWal: database.syncWal,
});

/** The retention purge, asked for by the main thread's schedule (message-store.ts `purge`). */
const mail = createMailService(database.db, database.engine, settings);
let purging: Promise<unknown> = Promise.resolve();

/** Deliveries in progress, and when the last one ended: while mail streams in, indexing waits. */
let storing = 0;
let lastStoredAt = 0;
/** When the oldest message this thread stored and the search index has not taken yet was stored. */
let unindexedSince: number | null = null;

async function store(request: StoreRequest): Promise<StoreReply> {
  const bytes = request.bytes
    ? Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.size)
    : null;
  const spool = { path: request.path, bytes, size: request.size, sha256: request.sha256 };
  storing++;
  try {
    const result = await inbound.deliver(spool, request.envelope);
    if (result.messageIds.length > 0) unindexedSince ??= Date.now();
    return { kind: 'stored', id: request.id, ...result };
  } catch (error) {
    const failure = error instanceof DeliveryError ? error.failure : 'storage';
    return { kind: 'failed', id: request.id, failure, message: (error as Error).message };
  } finally {
    storing--;
    lastStoredAt = Date.now();
  }
}

/** How often new mail is added to the search index when no mail is arriving. */
const INDEX_INTERVAL_MS = 250;
let indexTimer: NodeJS.Timeout | null = null;
let indexing: Promise<void> = Promise.resolve();
let closing = false;

async function indexPass(): Promise<void> {
  try {
    // A backlog (a burst of mail, an upgrade) goes in batches, letting deliveries in between.
    for (;;) {
      const startedAt = Date.now();
      if (closing || indexingWaits({ storing, lastStoredAt, unindexedSince, now: startedAt })) break;
      const indexed = await indexNewMessages(database.db);
      if (indexed < INDEX_BATCH) {
        // Caught up with everything stored before this batch began; what came during it is newer.
        unindexedSince = lastStoredAt >= startedAt ? startedAt : null;
        break;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  } catch (error) {
    log.warn(`search index: ${(error as Error).message} (retrying)`);
  }
  if (!closing) indexTimer = setTimeout(() => (indexing = indexPass()), INDEX_INTERVAL_MS);
}
if (database.engine === 'sqlite') indexing = indexPass();

port.on('message', (request: StoreRequest | PurgeRequest | { kind: 'close' }) => {
  if (request.kind === 'close') {
    // No delivery is in flight any more (the caller waited); the thread ends once the port closes.
    // A purge still running stops after its current batch; the next run goes on from there.
    closing = true;
    if (indexTimer) clearTimeout(indexTimer);
    void Promise.allSettled([indexing, purging])
      .then(() => database.close())
      .finally(() => port.close());
    return;
  }
  if (request.kind === 'purge') {
    const { id } = request;
    purging = mail
      .purge(Date.now(), () => closing)
      .then(
        (result) => send({ kind: 'purged', id, ...result }),
        (error: Error) => send({ kind: 'purgeFailed', id, message: error.message }),
      );
    return;
  }
  void store(request).then(send);
});
