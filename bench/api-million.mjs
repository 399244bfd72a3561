#!/usr/bin/env node
// API latency on a store of a million messages. Measures, never asserts. The bar: a heavy inbox
// answers as quickly as a small one.
//
// The messages are written straight into a migrated database (sending a million mails over SMTP
// would measure SMTP, not the API): 1 user with 200 addresses, 1,000,000 messages spread over
// them and over 90 days, one shared raw message. Then the built server is started on that data and
// the list calls are timed over HTTP.
// Usage: node bench/api-million.mjs [messages]   (default 1000000)
//   BENCH_DATABASE_URL=postgres://…  on PostgreSQL instead (a fresh database on that server)
//   BENCH_SERVER=/path/to/dist/server.js  another build of the server (to compare before and after)
//   BENCH_KEEP=1  keeps the filled SQLite store (its directory is printed); BENCH_STORE=that directory
//   times a kept store again without filling one (the fill takes minutes), e.g. another build on it
//   BENCH_CASES=regexp  only the calls whose label matches
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { keepAllMail, logIn, startBuiltServer } from './tools/server.mjs';
import {
  indexForSearch,
  insertPostgresMessages,
  sharedRawPostgres,
  sharedRawSqlite,
  sqliteMessageInsert,
} from './tools/store.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const total = Number(process.argv[2] ?? 1_000_000);
const ADDRESSES = 200;
const adminUrl = process.env.BENCH_DATABASE_URL ?? null;
const serverScript = process.env.BENCH_SERVER ?? join(root, 'apps/server/dist/server.js');
const startServer = (dataDir, databaseUrl) =>
  startBuiltServer({ dataDir, databaseUrl, script: serverScript });

async function call(base, token, path, init = {}) {
  const response = await fetch(`${base}/${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  return response.json();
}

const cases = process.env.BENCH_CASES ? new RegExp(process.env.BENCH_CASES) : null;

async function time(label, fn, runs = 50) {
  if (cases && !cases.test(label)) return;
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`${label.padEnd(44)} p50 ${pick(0.5).padStart(7)} ms   p95 ${pick(0.95).padStart(7)} ms`);
}

const words = ['发票', '会议', '订单', 'invoice', 'report', '通知', '快递', 'meeting', '账单', '验证码'];

/** The i-th message's columns after mailbox_id and raw_id, in the order the inserts below list them. */
function messageValues(i, now) {
  const word = words[i % words.length];
  return [
    `发件人${i % 997}`,
    `sender${i % 997}@example.com`,
    `${word} 第 ${i} 号邮件`,
    `这是第 ${i} 封测试邮件的摘要，关于${word}。`,
    `这是第 ${i} 封测试邮件的正文，关于${word}。编号 ${i}。`,
    now - Math.floor((i / total) * 90 * 86_400_000),
    i % 3 === 0 ? 0 : 1,
    i % 50 === 0 ? 1 : 0,
  ];
}

function fillSqlite(dataDir, now) {
  const db = new Database(join(dataDir, 'youju.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const mailboxes = db
    .prepare("select id from mailboxes where address like 'box%'")
    .all()
    .map((row) => row.id);
  const insert = sqliteMessageInsert(db, sharedRawSqlite(db, now));
  const fill = db.transaction((from, to) => {
    for (let i = from; i < to; i++) insert([mailboxes[i % mailboxes.length], ...messageValues(i, now)]);
  });
  for (let from = 0; from < total; from += 100_000) fill(from, Math.min(total, from + 100_000));
  indexForSearch(db);
  db.close();
  return `database ${(statSync(join(dataDir, 'youju.sqlite')).size / 2 ** 20).toFixed(0)} MiB`;
}

async function fillPostgres(url, now) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows: boxes } = await client.query("select id from mailboxes where address like 'box%'");
  const mailboxes = boxes.map((row) => row.id);
  const raw = await sharedRawPostgres(client, now);
  for (let from = 0; from < total; from += 10_000) {
    const rows = [];
    for (let i = from; i < Math.min(total, from + 10_000); i++) {
      rows.push([mailboxes[i % mailboxes.length], ...messageValues(i, now)]);
    }
    await insertPostgresMessages(client, raw, rows);
  }
  // As autovacuum leaves a table that has settled: statistics, and the visibility map that lets
  // counts read an index alone.
  await client.query('vacuum analyze messages');
  const {
    rows: [{ size }],
  } = await client.query('select pg_database_size(current_database()) as size');
  await client.end();
  return `database ${(Number(size) / 2 ** 20).toFixed(0)} MiB`;
}

const keptStore = process.env.BENCH_STORE ?? null;
const keep = process.env.BENCH_KEEP === '1' || keptStore !== null;
const dataDir = keptStore ?? mkdtempSync(join(tmpdir(), 'youju-bench-million-'));
let database = null;
if (adminUrl && keptStore) throw new Error('BENCH_STORE is a kept SQLite store: not with BENCH_DATABASE_URL');
if (adminUrl) {
  const name = `youju_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  database = { name, url: url.toString() };
}
/** Steps 1 and 2: a migrated store with the user's addresses, filled; resolves with a token. */
async function fillStore() {
  // 1. Migrate and create the user's domain and addresses through the API.
  const server = await startServer(dataDir, database?.url);
  const { base } = server;
  const token = await logIn(base);
  // Keep all of the mail (the purge would delete the older part a minute after the start).
  await keepAllMail(base, token);
  const domain = await call(base, token, 'user/addDomain', {
    method: 'POST',
    body: JSON.stringify({ name: 'bench.test' }),
  });
  for (let i = 0; i < ADDRESSES; i++) {
    await call(base, token, 'user/createEmail', {
      method: 'POST',
      body: JSON.stringify({ domainId: domain.data.id, localPart: `box${i}` }),
    });
  }
  await server.stop();

  // 2. Fill the store.
  const started = performance.now();
  const now = Date.now();
  const size = database ? await fillPostgres(database.url, now) : fillSqlite(dataDir, now);
  console.log(
    `${database ? 'postgres' : 'sqlite'}: filled ${total.toLocaleString()} messages over ${ADDRESSES} addresses in ${((performance.now() - started) / 1000).toFixed(1)} s; ${size}`,
  );

  return token;
}

try {
  let token = null;
  if (!keptStore) token = await fillStore();
  // 3. Time the API on it.
  const server = await startServer(dataDir, database?.url);
  const { base } = server;
  token ??= await logIn(base);
  try {
    await time('getInbox page 1 (all addresses)', () =>
      call(base, token, 'user/getInbox?page=1&pageSize=20'),
    );
    await time(
      'getInbox page 500 (all addresses)',
      () => call(base, token, 'user/getInbox?page=500&pageSize=20'),
      10,
    );
    await time('getInbox one address, page 1', (i = 0) =>
      call(base, token, `user/getInbox?address=box${i % ADDRESSES}@bench.test&page=1&pageSize=20`),
    );
    await time('getInbox one address, unread only', (i = 0) =>
      call(base, token, `user/getInbox?address=box${i % ADDRESSES}@bench.test&unread=true`),
    );
    await time(
      'getInbox one address, search "发票"',
      (i = 0) =>
        call(
          base,
          token,
          `user/getInbox?address=box${i % ADDRESSES}@bench.test&q=${encodeURIComponent('发票')}`,
        ),
      10,
    );
    await time(
      'getInbox all, search "sender42@"',
      () => call(base, token, `user/getInbox?q=${encodeURIComponent('sender42@')}`),
      5,
    );
    await time(
      'getInbox all, search "第 4242 号"',
      () => call(base, token, `user/getInbox?q=${encodeURIComponent('第 4242 号')}`),
      5,
    );
    await time(
      'getInbox all, search "invoice"',
      () => call(base, token, `user/getInbox?q=${encodeURIComponent('invoice')}`),
      20,
    );
    // Two characters have no trigram: the search reads the newest messages until the page is full
    // (a common word stops early), or all of them when the text is found nowhere.
    await time(
      'getInbox all, search "发票" (2 characters)',
      () => call(base, token, `user/getInbox?q=${encodeURIComponent('发票')}`),
      20,
    );
    await time(
      'getInbox all, search "发票", page 5',
      () => call(base, token, `user/getInbox?q=${encodeURIComponent('发票')}&page=5`),
      20,
    );
    await time(
      'getInbox all, search "邮编" (found nowhere)',
      () => call(base, token, `user/getInbox?q=${encodeURIComponent('邮编')}`),
      3,
    );
    await time('getUnreadEmail (200 addresses)', () => call(base, token, 'user/getUnreadEmail'), 10);
    await time('emailList (200 addresses, unread counts)', () => call(base, token, 'user/emailList'), 10);
    const first = await call(base, token, 'user/getInbox?page=1&pageSize=1');
    await time('getEmail', () => call(base, token, `user/getEmail?id=${first.data.list[0].id}`));
  } finally {
    await server.stop();
  }
} finally {
  if (keep && !database) console.log(`store kept in ${dataDir} (BENCH_STORE=${dataDir} to time it again)`);
  else rmSync(dataDir, { recursive: true, force: true });
  if (database) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${database.name} with (force)`);
    await admin.end();
  }
}
