#!/usr/bin/env node
// getInbox under load: a system user with 200 addresses and 12,000 messages against one with a
// single address and 20 messages, on the same server. Measures, never asserts. The bars: the heavy
// inbox's page 1 at half the small one's throughput or better (p99 ≤ 250 ms), a search of the
// heavy owner's mail at a fifth or better.
//
// The mail is written straight into the database (SMTP would measure SMTP), interleaved in time
// with `background` messages of other owners so that the heavy owner's mail is not the whole store.
// Each case is loaded by 100 clients, each sending its next request when the last one answered, in
// turns with the small inbox (the machine's other load changes from second to second; runs side by
// side compare), and its throughput is given as a ratio to the small inbox's in the same turns.
// Usage: node bench/inbox-heavy.mjs [seconds per case=12] [background=100000]
//   BENCH_DATABASE_URL=postgres://…  also runs on PostgreSQL (a fresh database on that server)
//   BENCH_SERVER=/path/to/dist/server.js  another build of the server (to compare before and after)
//   BENCH_CASES=regexp  only the cases whose label matches; BENCH_NODE_ARGS adds node options to the
//   server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"); BENCH_KEEP=1 keeps the store (and the
//   PostgreSQL database) for a look at the query plans
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { BENCH_ADMIN as ADMIN, keepAllMail, startBuiltServer } from './tools/server.mjs';
import {
  indexForSearch,
  insertPostgresMessages,
  sharedRawPostgres,
  sharedRawSqlite,
  sqliteMessageInsert,
} from './tools/store.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.argv[2] ?? 12);
const background = Number(process.argv[3] ?? 100_000);
const serverScript = process.env.BENCH_SERVER ?? join(root, 'apps/server/dist/server.js');
const CLIENTS = 100;
/** Each case runs in turns with the small inbox, this many times each. */
const ROUNDS = 3;
/** getInbox page 1 of 20 messages (the default page); a case adds its own parameters. */
const SMALL_PATH = 'user/getInbox?pageSize=20';
const HEAVY_ADDRESSES = 200;
const HEAVY_MESSAGES = 12_000;
const SMALL_MESSAGES = 20;
const BACKGROUND_ADDRESSES = 1000;
const DAYS = 90;

/** The built server (or BENCH_SERVER) on its own data directory, as in tools/server.mjs. */
function startServer(dataDir, databaseUrl) {
  return startBuiltServer({
    dataDir,
    databaseUrl,
    script: serverScript,
    nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  });
}

async function call(base, token, path, body) {
  const response = await fetch(`${base}/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const reply = await response.json();
  if (reply.error !== 0) throw new Error(`${path}: ${JSON.stringify(reply)}`);
  return reply.data;
}

/** A user with a domain of its own (still pending); its token and the domain. */
async function createOwner(base, adminToken, name, addresses) {
  const password = 'bench-password-1';
  await call(base, adminToken, 'admin/createSysAccount', {
    username: name,
    password,
    role: 'user',
    maxDomains: 0,
  });
  const { token } = await call(base, null, 'login', { username: name, password });
  const domain = await call(base, token, 'user/addDomain', { name: `${name}.bench.test` });
  return { token, domainId: domain.id, domain: domain.name, addresses };
}

/** The owners' domains become active, as verifyDomain makes them once their TXT record holds. */
async function activateDomains(engine, dataDir, databaseUrl) {
  const update = "update domains set status = 'active', verification_token = null";
  if (engine === 'sqlite') {
    const db = new Database(join(dataDir, 'youju.sqlite'));
    db.prepare(update).run();
    db.close();
  } else {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(update);
    await client.end();
  }
}

/** Message rows for every owner, oldest first, each owner's mail spread over the last DAYS days. */
function messageRows(mailboxesByOwner, counts, now) {
  const words = ['发票', '会议', '订单', 'invoice', 'report', '通知', '快递', 'meeting', '账单', '验证码'];
  const rows = [];
  for (const [owner, count] of Object.entries(counts)) {
    const mailboxes = mailboxesByOwner[owner];
    for (let i = 0; i < count; i++) {
      rows.push({
        mailbox: mailboxes[i % mailboxes.length],
        at: now - Math.floor(((i + 0.5) / count) * DAYS * 86_400_000),
      });
    }
  }
  rows.sort((a, b) => a.at - b.at);
  return rows.map((row, i) => {
    const word = words[i % words.length];
    return [
      row.mailbox,
      `发件人${i % 997}`,
      `sender${i % 997}@example.com`,
      `${word} 第 ${i} 号邮件`,
      `这是第 ${i} 封测试邮件的摘要，关于${word}。`,
      `这是第 ${i} 封测试邮件的正文，关于${word}。编号 ${i}。`,
      row.at,
      i % 3 === 0 ? 0 : 1,
      i % 50 === 0 ? 1 : 0,
    ];
  });
}

function fillSqlite(dataDir, counts) {
  const db = new Database(join(dataDir, 'youju.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const mailboxesByOwner = {};
  for (const owner of Object.keys(counts)) {
    mailboxesByOwner[owner] = db
      .prepare('select id from mailboxes where address like ? order by id')
      .all(`%@${owner}.bench.test`)
      .map((row) => row.id);
  }
  const now = Date.now();
  const insert = sqliteMessageInsert(db, sharedRawSqlite(db, now));
  db.transaction((rows) => {
    for (const row of rows) insert(row);
  })(messageRows(mailboxesByOwner, counts, now));
  indexForSearch(db);
  db.close();
}

async function fillPostgres(url, counts) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const mailboxesByOwner = {};
  for (const owner of Object.keys(counts)) {
    const { rows } = await client.query('select id from mailboxes where address like $1 order by id', [
      `%@${owner}.bench.test`,
    ]);
    mailboxesByOwner[owner] = rows.map((row) => row.id);
  }
  const now = Date.now();
  const raw = await sharedRawPostgres(client, now);
  const rows = messageRows(mailboxesByOwner, counts, now);
  for (let from = 0; from < rows.length; from += 5000) {
    await insertPostgresMessages(client, raw, rows.slice(from, from + 5000));
  }
  // As autovacuum leaves a table that has settled: statistics, and the visibility map that lets
  // counts read an index alone.
  await client.query('vacuum analyze messages');
  await client.end();
}

/** `CLIENTS` clients each sending `GET /api/<path>` in a loop for `duration` seconds; each latency. */
async function load(port, token, path, duration) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const get = () =>
    new Promise((resolve, reject) => {
      const request = http.get(
        {
          host: '127.0.0.1',
          port,
          path: `/api/${path}`,
          agent,
          headers: { authorization: `Bearer ${token}` },
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => {
            const reply = JSON.parse(Buffer.concat(chunks).toString());
            if (reply.error !== 0) reject(new Error(`${path}: ${JSON.stringify(reply)}`));
            else resolve(reply.data);
          });
        },
      );
      request.on('error', reject);
    });
  const times = [];
  const end = performance.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        await get();
        times.push(performance.now() - started);
      }
    }),
  );
  agent.destroy();
  return times;
}

/** Requests per second and latency percentiles of a set of runs. */
function summary(runs, duration) {
  const times = runs.flat().sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { rate: times.length / (duration * runs.length), p50: pick(0.5), p95: pick(0.95), p99: pick(0.99) };
}

/** The small inbox and `path` in turns, ROUNDS times each, after a short warm-up; both summaries. */
async function alongsideSmall(port, small, token, path) {
  const duration = seconds / ROUNDS;
  const smallRuns = [];
  const runs = [];
  await load(port, token, path, Math.min(1, duration / 2));
  for (let round = 0; round < ROUNDS; round++) {
    smallRuns.push(await load(port, small.token, SMALL_PATH, duration));
    runs.push(await load(port, token, path, duration));
  }
  return { small: summary(smallRuns, duration), result: summary(runs, duration) };
}

function report(engine, label, { small, result }) {
  const ms = (value) => `${value.toFixed(1).padStart(7)} ms`;
  console.log(
    `${engine.padEnd(9)}${label.padEnd(38)}${result.rate.toFixed(0).padStart(6)} req/s   p50 ${ms(result.p50)}   p95 ${ms(result.p95)}   p99 ${ms(result.p99)}   ${(result.rate / small.rate).toFixed(2)}× small (${small.rate.toFixed(0)} req/s, p99 ${small.p99.toFixed(0)} ms)`,
  );
}

async function bench(engine, adminUrl) {
  const dataDir = mkdtempSync(join(tmpdir(), 'youju-bench-heavy-'));
  let database = null;
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
  try {
    let server = await startServer(dataDir, database?.url);
    const { token: adminToken } = await call(server.base, null, 'login', ADMIN);
    // Keep all of the mail (the purge would delete the older part a minute after the start).
    await keepAllMail(server.base, adminToken);
    const heavy = await createOwner(server.base, adminToken, 'heavy', HEAVY_ADDRESSES);
    const small = await createOwner(server.base, adminToken, 'small', 1);
    const others = await createOwner(server.base, adminToken, 'others', BACKGROUND_ADDRESSES);
    await activateDomains(engine, dataDir, database?.url);
    for (const owner of [heavy, small, others]) {
      for (let i = 0; i < owner.addresses; i++) {
        await call(server.base, owner.token, 'user/createEmail', {
          domainId: owner.domainId,
          localPart: `box${i}`,
        });
      }
    }
    await server.stop();
    const counts = { heavy: HEAVY_MESSAGES, small: SMALL_MESSAGES, others: background };
    const started = performance.now();
    if (engine === 'sqlite') fillSqlite(dataDir, counts);
    else await fillPostgres(database.url, counts);
    console.log(
      `${engine}: filled ${(HEAVY_MESSAGES + SMALL_MESSAGES + background).toLocaleString()} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    server = await startServer(dataDir, database?.url);
    try {
      const only = process.env.BENCH_CASES ? new RegExp(process.env.BENCH_CASES) : null;
      const run = async (label, owner, query = '') =>
        only && !only.test(label)
          ? undefined
          : alongsideSmall(server.port, small, owner.token, `${SMALL_PATH}${query}`).then((result) =>
              report(engine, label, result),
            );
      const q = (text) => `&q=${encodeURIComponent(text)}`;
      await run('small inbox (20 messages), page 1', small);
      await run('heavy inbox (12,000 / 200 addresses)', heavy);
      await run('heavy, unread only', heavy, '&unread=true');
      await run('heavy, one address', heavy, `&address=box7@${heavy.domain}`);
      await run('heavy, page 50', heavy, '&page=50');
      await run('heavy, search "发票" (2 characters)', heavy, q('发票'));
      await run('heavy, search "invoice"', heavy, q('invoice'));
      await run('heavy, search "sender42@"', heavy, q('sender42@'));
      await run('heavy, search "邮编" (found nowhere)', heavy, q('邮编'));
    } finally {
      await server.stop();
    }
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}${database ? ` and ${database.url}` : ''}`);
    else rmSync(dataDir, { recursive: true, force: true });
    if (database && !process.env.BENCH_KEEP) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${database.name} with (force)`);
      await admin.end();
    }
  }
}

await bench('sqlite', null);
if (process.env.BENCH_DATABASE_URL) await bench('postgres', process.env.BENCH_DATABASE_URL);
