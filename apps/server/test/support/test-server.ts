import { access, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { startAcmeChallengeServer } from '../../src/acme-challenge-server.js';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { SQLITE_FILE } from '../../src/db/sqlite-files.js';
import { startHttpsServer } from '../../src/https-server.js';
import { startImapServer } from '../../src/imap/imap-server.js';
import type { IMAP_LIMITS } from '../../src/imap/imap-session.js';
import { startPop3Server } from '../../src/pop3/pop3-server.js';
import { startSmtpServer, startSmtpsServer } from '../../src/smtp/smtp-server.js';
import { type DeferredListener, startWhenCertified } from '../../src/tls-listeners.js';
import { type ApiCaller, apiAt } from './api.js';

/**
 * The database engine a test run uses: `YOUJU_TEST_ENGINE=postgres` with `TEST_DATABASE_URL` (an
 * administrative connection; each test server gets a fresh database there), SQLite otherwise.
 */
export const testEngine: 'sqlite' | 'postgres' =
  process.env.YOUJU_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  baseUrl: string;
  /** the inbound SMTP listener's port on 127.0.0.1 */
  smtpPort: number;
  /** the SMTPS listener's port when `SMTPS_PORT` was given in `env` (use '0') and a certificate exists (now) */
  smtpsPort: number | null;
  /** the HTTPS listener's port when `HTTPS_PORT` was given in `env` (use '0') and a certificate exists */
  httpsPort: number | null;
  /** the ACME HTTP-01 responder's port when `ACME_EMAIL` (and `ACME_HTTP_PORT`) were given in `env` */
  acmeChallengePort: number | null;
  /** the IMAP listener's port (STARTTLS) when `mailClients` was given */
  imapPort: number | null;
  /** the IMAPS listener's port when `mailClients` was given and a certificate exists */
  imapsPort: number | null;
  /** the POP3 listener's port (STLS) when `mailClients` was given */
  pop3Port: number | null;
  /** the POP3S listener's port when `mailClients` was given and a certificate exists */
  pop3sPort: number | null;
  /** the implicit-TLS listeners, which start once a certificate exists: `started()` waits for one */
  tlsListeners: Record<
    'smtps' | 'https' | 'imaps' | 'pop3s',
    DeferredListener<{ port: number; close(): Promise<void> }>
  >;
  dataDir: string;
  /** Calls the API over real HTTP ({@link callApi}); the body is typed by the path. */
  api: ApiCaller;
  /** Logs in as the administrator created at start and returns the token. */
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'admin-password-1';

function postgresAdminUrl(): string {
  const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('YOUJU_TEST_ENGINE=postgres needs TEST_DATABASE_URL');
  return adminUrl;
}

/**
 * A test database's URL. Its connections commit without waiting for the WAL to reach the disk
 * (`synchronous_commit=off`, set per connection through libpq's `options`): what a commit makes
 * visible, and every rule the database enforces, stay the same; only a crash of PostgreSQL itself,
 * which no test causes, could lose the last commits. Waiting on that flush was several
 * milliseconds of every commit.
 */
function postgresUrlOf(name: string): string {
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  url.searchParams.set('options', '-c synchronous_commit=off');
  return url.toString();
}

/**
 * Prefix of the migrated template databases of one test run: the vitest process that runs the
 * workers (their parent) drops them at the end (compile-server.ts).
 */
const POSTGRES_TEMPLATE_PREFIX = 'youju_tpl_';

/**
 * Prefix of the test databases; the run's id follows (as for the templates), so that the same
 * clean-up drops what a worker left behind: the database it had made ready for a next server
 * ({@link takeMigratedPostgresDatabase}), and any it was still dropping when it ended.
 */
const POSTGRES_DATABASE_PREFIX = 'youju_t_';

let postgresTemplate: Promise<string> | null = null;
let sqliteTemplate: Promise<string> | null = null;

/**
 * A database with every migration applied, made once per test worker. A test server's database is
 * copied from it instead of being migrated anew (55 migrations: seconds per server on PostgreSQL,
 * most of the suite's set-up time); the migrations themselves are tested where they run from empty
 * (operations/migrate.test.ts, backups, restart tests on a fresh store).
 */
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `${POSTGRES_TEMPLATE_PREFIX}${process.ppid}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const database = openDatabase({ databaseUrl: postgresUrlOf(name), dataDir: tmpdir(), poolSize: 1 });
    await migrate(database.db as never, 'postgres');
    await database.close();
    return name;
  })();
  return postgresTemplate;
}

function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'youju-template-'));
    const database = openDatabase({ databaseUrl: null, dataDir: dir });
    await migrate(database.db as never, 'sqlite');
    // Closing the last connection checkpoints the WAL into the file and removes it.
    await database.close();
    return join(dir, SQLITE_FILE);
  })();
  return sqliteTemplate;
}

/**
 * A fresh PostgreSQL database on TEST_DATABASE_URL's server, and how to drop it afterwards: empty,
 * or with `migrated`, a copy of the migrated template.
 */
export async function createPostgresDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = postgresAdminUrl();
  const template = options.migrated ? await migratedPostgresTemplate() : null;
  const name = `${POSTGRES_DATABASE_PREFIX}${process.ppid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = postgresUrlOf(name);
  return {
    url,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

type PostgresDatabase = Awaited<ReturnType<typeof createPostgresDatabase>>;

/** The migrated database the next test server of this worker takes, made while a test runs. */
let nextPostgresDatabase: Promise<PostgresDatabase> | null = null;

/**
 * A fresh migrated database for a test server. Copying the template and dropping the copy took
 * about 0.8 s per server (PostgreSQL writes the copy to its WAL and checkpoints for the drop), in
 * front of every file's tests: each server now takes the database made ready during the last
 * test, and the next one is made at once. The copy is the same as before; only its timing moved.
 */
function takeMigratedPostgresDatabase(): Promise<PostgresDatabase> {
  const taken = nextPostgresDatabase ?? createPostgresDatabase({ migrated: true });
  nextPostgresDatabase = createPostgresDatabase({ migrated: true });
  // Its failure, if any, is thrown to the server that takes it.
  nextPostgresDatabase.catch(() => {});
  return taken;
}

/** Starts a real server on a loopback port with its own data directory and database. */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    initAdmin?: boolean;
    webRoot?: string | null;
    /** runs on the fresh data directory before the server starts (e.g. to install certificates) */
    prepareDataDir?: (dataDir: string) => Promise<void>;
    /** starts the mail-client listeners (IMAP, IMAPS, POP3, POP3S) on free ports; `loopbackIsRemote` makes
     * loopback clients count as remote (LOGIN only after TLS) */
    mailClients?: { loopbackIsRemote?: boolean; imapLimits?: Partial<typeof IMAP_LIMITS> };
    /** receives every log line at level trace (to prove secrets stay out of logs); default: silence */
    logSink?: (line: string) => void;
  } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'youju-test-'));
  await options.prepareDataDir?.(dataDir);
  const postgres = testEngine === 'postgres' ? await takeMigratedPostgresDatabase() : null;
  if (!postgres && !options.env?.DATABASE_URL) {
    const file = join(dataDir, SQLITE_FILE);
    const prepared = await access(file).then(
      () => true,
      () => false,
    );
    if (!prepared) await copyFile(await migratedSqliteTemplate(), file);
  }
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SMTP_PORT: '0',
    MAIL_HOSTNAME: 'mx.youju.test',
    ...(options.initAdmin === false
      ? {}
      : { INIT_ADMIN_USER: ADMIN_USER, INIT_ADMIN_PASSWORD: ADMIN_PASSWORD }),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...options.env,
  };
  const config = loadConfig(env, { webRoot: options.webRoot ?? null, logLevel: 'silent' });
  const sink = options.logSink;
  const app = await buildApp(sink ? { ...config, logLevel: 'trace' } : config, {
    logger: sink ? { stream: { write: (line: string) => sink(line) } } : false,
  });
  const smtp = await startSmtpServer(app, { port: 0, host: '127.0.0.1' });
  // The implicit-TLS listeners as server.ts starts them: now, or once a certificate appears.
  const later = { host: '127.0.0.1', closeWithApp: false } as const;
  const smtps = await startWhenCertified(app, 'SMTPS', config.smtpsPort !== null, () =>
    startSmtpsServer(app, later),
  );
  const acmeChallenge = await startAcmeChallengeServer(app, { host: '127.0.0.1' });
  const clientListener = {
    port: 0,
    host: '127.0.0.1',
    loopbackIsRemote: options.mailClients?.loopbackIsRemote === true,
  };
  const imapLimits = options.mailClients?.imapLimits;
  const imap = options.mailClients
    ? await startImapServer(app, { ...clientListener, ...(imapLimits ? { limits: imapLimits } : {}) })
    : null;
  const imaps = await startWhenCertified(app, 'IMAPS', options.mailClients !== undefined, () =>
    startImapServer(app, { ...clientListener, secure: true, closeWithApp: false }),
  );
  const pop3 = options.mailClients ? await startPop3Server(app, clientListener) : null;
  const pop3s = await startWhenCertified(app, 'POP3S', options.mailClients !== undefined, () =>
    startPop3Server(app, { ...clientListener, secure: true, closeWithApp: false }),
  );
  // Last: starting HTTPS makes the app ready, after which no listener may add its close hook.
  const https = await startWhenCertified(app, 'HTTPS', config.httpsPort !== null, () =>
    startHttpsServer(app, later),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const baseUrl = `http://127.0.0.1:${address.port}`;

  const api = apiAt(baseUrl);

  let cachedAdminToken: string | null = null;
  return {
    app,
    config,
    baseUrl,
    smtpPort: smtp.port,
    get smtpsPort() {
      return smtps.port;
    },
    get httpsPort() {
      return https.port;
    },
    acmeChallengePort: acmeChallenge?.port ?? null,
    imapPort: imap?.port ?? null,
    get imapsPort() {
      return imaps.port;
    },
    pop3Port: pop3?.port ?? null,
    get pop3sPort() {
      return pop3s.port;
    },
    tlsListeners: { smtps, https, imaps, pop3s },
    dataDir,
    api,
    async adminToken() {
      if (cachedAdminToken) return cachedAdminToken;
      const { body } = await api('POST', 'login', {
        body: { username: ADMIN_USER, password: ADMIN_PASSWORD },
      });
      if (body.error !== 0) throw new Error(`admin login failed: ${JSON.stringify(body)}`);
      cachedAdminToken = body.data.token;
      return cachedAdminToken;
    },
    async close() {
      await app.close();
      // Dropped while the next test runs (nothing connects to it any more: the app is closed, and
      // WITH (FORCE) ends any straggler); a drop still running when the worker ends, or one that
      // failed, is done by the run's clean-up (compile-server.ts).
      postgres?.drop().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test server and its administrator's token, for files whose tests act as the administrator. */
export async function startTestServerAsAdmin(
  options: Parameters<typeof startTestServer>[0] = {},
): Promise<{ server: TestServer; admin: string }> {
  const server = await startTestServer(options);
  return { server, admin: await server.adminToken() };
}

/** What a test starts and must stop afterwards: a server (`close`) or a helper process (`stop`). */
type Stoppable = { close(): Promise<void> } | { stop(): Promise<void> };

/** Stops what a file started, one after the other in the order given; skips what never started. */
export async function stopAll(...started: Array<Stoppable | undefined | null>): Promise<void> {
  for (const item of started) {
    if (!item) continue;
    if ('close' in item) await item.close();
    else await item.stop();
  }
}
