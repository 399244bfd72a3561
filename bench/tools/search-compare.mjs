// getInbox's listing and search in the repository itself (no HTTP, one caller), for two builds of
// the server on one SQLite store in alternation: the ratio holds better than the HTTP benchmarks'
// on a machine shared with other work. Not a benchmark of its own (scripts/bench.mjs runs only
// the files directly in bench/). Measures, never asserts.
// Usage: BENCH_BEFORE=/path/to/an/older/dist node bench/tools/search-compare.mjs [messages=112000]
// (the store is migrated by apps/server/dist; without BENCH_BEFORE only that build is timed)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const root = new URL('../../apps/server', import.meta.url).pathname;
const { openDatabase } = await import(`${root}/dist/db/database.js`);
const { migrate } = await import(`${root}/dist/db/migrate.js`);
const after = await import(`${root}/dist/db/repositories/message-repo.js`);
const before = process.env.BENCH_BEFORE
  ? await import(`${process.env.BENCH_BEFORE}/db/repositories/message-repo.js`)
  : null;
const store = await import('./store.mjs');
const total = Number(process.argv[2] ?? 112000);
const dataDir = mkdtempSync(join(tmpdir(), 'youju-search-compare-'));
let h = openDatabase({ dataDir });
await migrate(h.db, 'sqlite');
await h.db.destroy();
const db = new Database(join(dataDir, 'youju.sqlite'));
db.pragma('synchronous = OFF');
db.pragma('foreign_keys = OFF');
const cols = db
  .prepare('select name, type, "notnull", dflt_value from pragma_table_info(\'mailboxes\')')
  .all();
const fill = cols.filter(
  (c) => c.notnull && c.dflt_value === null && !['id', 'owner_id', 'address'].includes(c.name),
);
const mb = db.prepare(
  `insert into mailboxes (id, owner_id, address${fill.map((c) => `, ${c.name}`).join('')}) values (?, ?, ?${fill.map((c) => (/int/i.test(c.type) ? ', 0' : ", ''")).join('')})`,
);
db.transaction(() => {
  for (let i = 1; i <= 1200; i++)
    mb.run(i, i <= 200 ? 1 : 2, `box${i}@d${i <= 200 ? 'heavy' : 'other'}.test`);
})();
const words = ['发票', '会议', '订单', 'invoice', 'report', '通知', '快递', 'meeting', '账单', '验证码'];
const now = Date.now();
const insert = store.sqliteMessageInsert(db, store.sharedRawSqlite(db, now));
let heavy = 0,
  other = 0;
db.transaction(() => {
  for (let i = 0; i < total; i++) {
    const w = words[i % 10];
    const isHeavy = i % 28 < 3;
    const mailbox = isHeavy ? 1 + (heavy++ % 200) : 201 + (other++ % 1000);
    insert([
      mailbox,
      `发件人${i % 997}`,
      `sender${i % 997}@example.com`,
      `${w} 第 ${i} 号邮件`,
      `摘要${i}`,
      `这是第 ${i} 封测试邮件的正文，关于${w}。编号 ${i}。`,
      now - (total - i) * 60000,
      i % 3 === 0 ? 0 : 1,
      0,
    ]);
  }
})();
store.indexForSearch(db);
db.close();
console.log(`heavy owner ${heavy} messages of ${total}`);
h = openDatabase({ dataDir });
const scope = { kind: 'owner', ownerId: 1 };
const filters = { folder: 'inbox' };
async function time(fn, runs = 15) {
  await fn();
  const t = [];
  let r;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    r = await fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return { p50: t[Math.floor(t.length / 2)], total: r.total, n: r.rows.length };
}
// A build's scope sizes counted lately, as its mail service keeps them (builds before it had none).
const sizesOf = new Map([after, before].filter(Boolean).map((m) => [m, m.createScopeSizes?.()]));
const search = (m, q, offset = 0, only = filters) =>
  m.searchInboxPage(h.db, 'sqlite', scope, only, q, { limit: 20, offset }, undefined, sizesOf.get(m));
// One address of the heavy owner: its words are those of every 28th message (see the fill above).
const oneAddress = { ...filters, address: 'box7@dheavy.test' };
const cases = [
  ['getInbox page 1', (m) => m.listInboxPage(h.db, scope, filters, { limit: 20, offset: 0 })],
  ['getInbox page 50', (m) => m.listInboxPage(h.db, scope, filters, { limit: 20, offset: 980 })],
  ...['发票', 'invoice', 'sender42@', '邮编', 'qz', '第 4242 号'].map((q) => [
    `search "${q}"`,
    (m) => search(m, q),
  ]),
  ['search "发票" page 5', (m) => search(m, '发票', 80)],
  ['search "发票" page 50', (m) => search(m, '发票', 980)],
  ...['发票', '会议', '快递'].map((q) => [`one address, search "${q}"`, (m) => search(m, q, 0, oneAddress)]),
];
for (let round = 0; round < 2; round++) {
  for (const [label, fn] of cases) {
    const b = before ? await time(() => fn(before)) : null;
    const a = await time(() => fn(after));
    const shown = (r) => `p50 ${r.p50.toFixed(2).padStart(8)} ms (total ${r.total}, ${r.n} rows)`;
    console.log(`${label.padEnd(28)} ${b ? `before ${shown(b)}   ` : ''}after ${shown(a)}`);
  }
}
await h.db.destroy();
rmSync(dataDir, { recursive: true, force: true });
