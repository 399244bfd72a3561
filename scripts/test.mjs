#!/usr/bin/env node
// `npm test`: every suite. Builds first (browser and crash tests run the built server), then runs
// in two lanes from one queue (see `lanes`) the server suite on SQLite and, when one is reachable,
// on PostgreSQL, the static checks, the contract, tooling and web suites, and the browser test
// files. Prints each job's output, then one line summing them all: "N passed, N failed".
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

/** Runs one command in the background, its output kept in a file (printed later). */
function runInBackground({ label, command, args, env }) {
  const log = join(reports, `${label.replace(/\W+/g, '-')}.log`);
  const fd = openSync(log, 'w');
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve) => {
    child.on('close', (status) => {
      closeSync(fd);
      resolve({ log, status });
    });
  });
}

/** A static check: one test, passed when the command exits 0. */
const check = (label, script, args = []) => ({
  label,
  kind: 'check',
  command: process.execPath,
  args: [join(root, script), ...args],
});

/** A vitest run of `project` (limited to `filters`), its counts read from its JSON report. */
const vitestRun = (label, project, env = {}, filters = []) => {
  const output = reportFile(label);
  return {
    label,
    kind: 'vitest',
    output,
    command: process.execPath,
    args: vitestArgs(project, output, filters),
    env,
  };
};

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
 * Two lanes, one per core, each running one job at a time from a shared queue: first the two
 * server suites (on SQLite, on PostgreSQL: the longest jobs, much of their time spent waiting on
 * sockets, disks and timers), then the static checks and the small suites, then the browser test
 * files, the largest first, so that the two lanes end together. The static checks used to run
 * before, one after the other, with one core idle. Never three jobs at once: the browser suite beside
 * both server suites made each of the three 2.5 times slower (measured); a browser file keeps about
 * one core busy (Chromium, the built server), like a server suite.
 */
async function lanes(queue, count = 2) {
  const done = new Map();
  const lane = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) done.set(job, await runInBackground(job));
  };
  await Promise.all(Array.from({ length: count }, lane));
  return done;
}

const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

const checks = [
  check('typecheck (tsc --noEmit, strict)', 'node_modules/typescript/bin/tsc', [
    '-p',
    'apps/web/tsconfig.json',
    '--noEmit',
  ]),
  check('typecheck of the server tests (tsc --noEmit, strict)', 'node_modules/typescript/bin/tsc', [
    '-p',
    'apps/server/test/tsconfig.json',
  ]),
  check('lint and format (biome, zero warnings)', 'node_modules/@biomejs/biome/bin/biome', [
    'check',
    '--error-on-warnings',
    '.',
  ]),
  check('architecture rules (scripts/lint-architecture.mjs)', 'scripts/lint-architecture.mjs'),
  check('both languages (scripts/check-i18n.mjs)', 'scripts/check-i18n.mjs'),
  vitestRun('contract', 'contract'),
  vitestRun('tooling (architecture checker)', 'tooling'),
  vitestRun('web (unit)', 'web'),
];
const serverSuites = [vitestRun('server on SQLite', 'server', { YOUJU_TEST_ENGINE: 'sqlite' })];
const postgresUrl = await findPostgres();
if (postgresUrl) {
  serverSuites.push(
    // The tests against a running server, and the database code's own; the unit tests beside the
    // rest of the source (protocols, parsers, pure services) touch no database and ran on SQLite.
    vitestRun(
      'server on PostgreSQL',
      'server',
      { YOUJU_TEST_ENGINE: 'postgres', TEST_DATABASE_URL: postgresUrl },
      ['apps/server/test/', 'apps/server/src/db/'],
    ),
  );
}
const chromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
const browserRuns = chromium
  ? browserFiles().map((file) =>
      vitestRun(
        `browser ${file.replace(/^apps\/web\/e2e\//, '')}`,
        'browser',
        { YOUJU_TEST_ENGINE: 'sqlite' },
        [file],
      ),
    )
  : [];
console.log(
  `\n=== ${serverSuites.map((entry) => entry.label).join(' and ')}, the checks${chromium ? ', then browser' : ''}, in two lanes ===`,
);
const done = await lanes([...serverSuites, ...checks, ...browserRuns]);

/** Prints a finished job's output under its name. */
function show(job) {
  console.log(`\n=== ${job.label} ===`);
  process.stdout.write(readFileSync(done.get(job).log));
}
for (const job of checks) {
  show(job);
  const { status } = done.get(job);
  if (job.kind === 'vitest') tally(job.label, job.output, status);
  else {
    const passed = status === 0 ? 1 : 0;
    totals.passed += passed;
    totals.failed += 1 - passed;
    lines.push(`${job.label}: ${passed} passed, ${1 - passed} failed`);
  }
}
for (const job of serverSuites) {
  show(job);
  tally(job.label, job.output, done.get(job).status);
}
if (!postgresUrl) {
  lines.push('server on PostgreSQL: not run (no PostgreSQL reachable; set TEST_DATABASE_URL)');
  if (process.env.CI) totals.failed += 1;
}
if (chromium) {
  console.log('\n=== browser ===');
  for (const job of browserRuns) process.stdout.write(readFileSync(done.get(job).log));
  tallyRuns(
    'browser',
    browserRuns.map((job) => ({ output: job.output, status: done.get(job).status })),
  );
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
