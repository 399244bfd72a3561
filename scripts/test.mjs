#!/usr/bin/env node
// `npm test`: every suite. Builds first (browser and crash tests run the built server), then runs
// the static checks, the contract and web suites, then side by side the server suite on SQLite and,
// when one is reachable, on PostgreSQL, then the browser suite. Ends with one line summing them
// all: "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = mkdtempSync(join(tmpdir(), 'youju-test-reports-'));
const vitest = join(root, 'node_modules/vitest/vitest.mjs');

async function findPostgres() {
  const candidates = [
    process.env.TEST_DATABASE_URL,
    process.env.DATABASE_URL,
    'postgres://postgres:postgres@127.0.0.1:5432/postgres',
  ].filter(Boolean);
  for (const url of candidates) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return url;
    } catch {
      await client.end().catch(() => {});
    }
  }
  return null;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function vitestArgs(project, output, filters = []) {
  return [
    vitest,
    'run',
    '--project',
    project,
    ...filters,
    '--passWithNoTests',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${output}`,
  ];
}

/** Adds a finished suite's counts (from vitest's JSON report) to the totals. */
function tally(label, output, status) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(output)) {
    const report = JSON.parse(readFileSync(output, 'utf8'));
    passed = report.numPassedTests ?? 0;
    failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
    skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that failed to load counts as a failure even when it reported no test.
    for (const file of report.testResults ?? []) {
      if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed += 1;
    }
  }
  if (status !== 0 && failed === 0) failed = 1;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(`${label}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
}

const reportFile = (label) => join(reports, `${label.replace(/\W+/g, '-')}.json`);

function suite(label, project, env = {}) {
  const output = reportFile(label);
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(process.execPath, vitestArgs(project, output), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  tally(label, output, result.status);
}

/**
 * Suites that run side by side (the server suite on SQLite and on PostgreSQL: much of their time
 * is spent waiting on sockets, disks and timers, not on the CPU). Each one's output is kept in a
 * file and printed whole, in order, once all have finished.
 */
async function suitesSideBySide(entries) {
  const runs = entries.map(({ label, project, env, filters }) => {
    const output = reportFile(label);
    const log = join(reports, `${label.replace(/\W+/g, '-')}.log`);
    const fd = openSync(log, 'w');
    const child = spawn(process.execPath, vitestArgs(project, output, filters), {
      cwd: root,
      stdio: ['ignore', fd, fd],
      env: { ...process.env, ...env },
    });
    return new Promise((resolve) => {
      child.on('close', (status) => {
        closeSync(fd);
        resolve({ label, output, log, status });
      });
    });
  });
  for (const { label, output, log, status } of await Promise.all(runs)) {
    console.log(`\n=== ${label} ===`);
    process.stdout.write(readFileSync(log));
    tally(label, output, status);
  }
}

const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

/** A static check counts as one test: passed when the command exits 0. */
function check(label, command, args) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const passed = result.status === 0 ? 1 : 0;
  totals.passed += passed;
  totals.failed += 1 - passed;
  lines.push(`${label}: ${passed} passed, ${1 - passed} failed`);
}

check('typecheck (tsc --noEmit, strict)', process.execPath, [
  join(root, 'node_modules/typescript/bin/tsc'),
  '-p',
  'apps/web/tsconfig.json',
  '--noEmit',
]);
check('typecheck of the server tests (tsc --noEmit, strict)', process.execPath, [
  join(root, 'node_modules/typescript/bin/tsc'),
  '-p',
  'apps/server/test/tsconfig.json',
]);
check('lint and format (biome, zero warnings)', process.execPath, [
  join(root, 'node_modules/@biomejs/biome/bin/biome'),
  'check',
  '--error-on-warnings',
  '.',
]);
check('architecture rules (scripts/lint-architecture.mjs)', process.execPath, [
  join(root, 'scripts/lint-architecture.mjs'),
]);
check('both languages (scripts/check-i18n.mjs)', process.execPath, [join(root, 'scripts/check-i18n.mjs')]);
suite('contract', 'contract');
suite('tooling (architecture checker)', 'tooling');
suite('web (unit)', 'web');
const serverSuites = [{ label: 'server on SQLite', project: 'server', env: { YOUJU_TEST_ENGINE: 'sqlite' } }];
const postgresUrl = await findPostgres();
if (postgresUrl) {
  serverSuites.push({
    label: 'server on PostgreSQL',
    project: 'server',
    env: { YOUJU_TEST_ENGINE: 'postgres', TEST_DATABASE_URL: postgresUrl },
    // The tests against a running server, and the database code's own; the unit tests beside the
    // rest of the source (protocols, parsers, pure services) touch no database and ran on SQLite.
    filters: ['apps/server/test/', 'apps/server/src/db/'],
  });
}
console.log(`\n=== ${serverSuites.map((entry) => entry.label).join(' and ')}, side by side ===`);
await suitesSideBySide(serverSuites);
if (!postgresUrl) {
  lines.push('server on PostgreSQL: not run (no PostgreSQL reachable; set TEST_DATABASE_URL)');
  if (process.env.CI) totals.failed += 1;
}
// The browser suite after them, alone: Chromium's rendering keeps a core busy, and beside the two
// server suites on a 2-core machine it made each of the three 2.5 times slower (measured).
if (existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
  suite('browser', 'browser', { YOUJU_TEST_ENGINE: 'sqlite' });
} else {
  lines.push('browser: not run (Chromium not found at /usr/bin/chromium)');
  if (process.env.CI) totals.failed += 1;
}

console.log('\n=== summary ===');
for (const line of lines) console.log(line);
if (totals.skipped) console.log(`skipped in all: ${totals.skipped} (tests for the other database engine)`);
// The last line is the sum CI reads, alone on its line.
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
