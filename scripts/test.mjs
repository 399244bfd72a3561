#!/usr/bin/env node
// `npm test`: every suite. Builds first (browser and crash tests run the built server), then runs
// the static checks, the contract and web suites, then side by side the server suite on SQLite and,
// when one is reachable, on PostgreSQL, each followed by browser test files from a shared queue
// (see `lanes`). Ends with one line summing them all: "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** A finished vitest run's counts, from its JSON report (and its exit status). */
function counts(output, status) {
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
  return { passed, failed, skipped };
}

/** Adds a finished suite's counts (the sum of its vitest runs) to the totals, on one line. */
function tallyRuns(label, runs) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const { output, status } of runs) {
    const c = counts(output, status);
    passed += c.passed;
    failed += c.failed;
    skipped += c.skipped;
  }
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(`${label}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
}

function tally(label, output, status) {
  tallyRuns(label, [{ output, status }]);
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

/** Runs one vitest invocation in the background, its output kept in a file (printed later). */
function runInBackground({ label, project, env, filters }) {
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
}

/** The browser suite's test files, the largest (longest) first. */
function browserFiles() {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) found.push({ path, size: statSync(join(root, path)).size });
    }
  };
  walk('apps/web/e2e');
  return found.sort((a, b) => b.size - a.size).map((file) => file.path);
}

/**
 * Two lanes, one per core, each running one thing at a time: a server suite (on SQLite, on
 * PostgreSQL: much of their time is spent waiting on sockets, disks and timers), then browser test
 * files taken one by one from a shared queue, so the lane whose server suite ends first starts on
 * the browser files first and the two lanes end together. Never three at once: the browser suite
 * beside both server suites made each of the three 2.5 times slower (measured); a browser file
 * keeps about one core busy (Chromium, the built server), like a server suite.
 */
async function lanes(serverEntries, browserQueue, browserEnv) {
  const browserRuns = [];
  const lane = async (entry) => {
    const server = entry ? await runInBackground(entry) : null;
    for (let file = browserQueue.shift(); file; file = browserQueue.shift()) {
      const name = file.replace(/^apps\/web\/e2e\//, '');
      browserRuns.push(
        await runInBackground({
          label: `browser ${name}`,
          project: 'browser',
          env: browserEnv,
          filters: [file],
        }),
      );
    }
    return server;
  };
  const servers = await Promise.all(serverEntries.map(lane));
  return { servers, browserRuns };
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
const chromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
console.log(
  `\n=== ${serverSuites.map((entry) => entry.label).join(' and ')}, side by side${chromium ? ', then browser' : ''} ===`,
);
const { servers, browserRuns } = await lanes(serverSuites, chromium ? browserFiles() : [], {
  YOUJU_TEST_ENGINE: 'sqlite',
});
for (const { label, output, log, status } of servers) {
  console.log(`\n=== ${label} ===`);
  process.stdout.write(readFileSync(log));
  tally(label, output, status);
}
if (!postgresUrl) {
  lines.push('server on PostgreSQL: not run (no PostgreSQL reachable; set TEST_DATABASE_URL)');
  if (process.env.CI) totals.failed += 1;
}
if (chromium) {
  console.log('\n=== browser ===');
  // In the order the files ran; each file's output whole.
  for (const { log } of browserRuns) process.stdout.write(readFileSync(log));
  tallyRuns('browser', browserRuns);
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
