#!/usr/bin/env node
// What the web client costs a visitor, on the built server. Measures, never asserts. The bar: a
// cold /home in at most 200 KB of JavaScript and 350 KB in all, a cold logged-in inbox in at most
// 350 KB of JavaScript (bytes on the wire, i.e. compressed), and Lighthouse performance ≥ 95 on /home.
//
//  - Transfer: headless Chromium (playwright-core), each page in a fresh context (empty cache),
//    counting by resource type the bytes each response's body took on the wire (compressed as
//    sent), the same with its headers, and for comparison its decoded body.
//  - Lighthouse 12 on /home, with its default configuration (the mobile preset: a phone's screen,
//    simulated slow 4G and 4× CPU slowdown) and with its desktop preset; the median of the runs.
//    Lighthouse simulates the CPU slowdown from the times it observes, so a busy machine (its
//    "benchmark index", printed too) scores lower.
// Usage: node bench/web-client.mjs [lighthouse runs]   (default 3; 0 skips Lighthouse)
// With LIGHTHOUSE_JSON=<folder>, each run's full Lighthouse report (its diagnostics: main-thread work,
// bootup time per script, long tasks) is saved there as <preset>-<run>.json.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ADMIN, freePort, startBuiltServer } from './tools/server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lighthouseRuns = Number(process.argv[2] ?? 3);
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The page counts as loaded once no request (besides the live-inbox stream) started or ended for this long. */
const QUIET_MS = 1500;
const jsonDir = process.env.LIGHTHOUSE_JSON;

function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

async function waitFor(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      // Not up yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: no answer within ${timeoutMs / 1000} s`);
}

async function api(origin, token, path, body) {
  const response = await fetch(`${origin}/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = await response.json();
  if (envelope.error !== 0) throw new Error(`${path}: ${envelope.msg}`);
  return envelope.data;
}

/** An administrator with one domain and one address, so that the inbox has something to list. */
async function prepareAccount(origin) {
  const { token } = await api(origin, null, 'login', BENCH_ADMIN);
  const domain = await api(origin, token, 'user/addDomain', { name: 'bench.test', publicRegistration: true });
  await api(origin, token, 'user/createEmail', { domainId: domain.id, localPart: 'reader' });
  return token;
}

/**
 * Loads `path` in a fresh context (empty cache; with `token` stored as a login would), waits until
 * `ready` shows and the network has been quiet for a while, and returns each finished response's
 * type and sizes: body as sent (compressed), headers, and body decoded.
 */
async function coldLoad(browser, origin, path, ready, token) {
  const context = await browser.newContext({ locale: 'zh-CN' });
  if (token) await context.addInitScript((value) => localStorage.setItem('token', value), token);
  const page = await context.newPage();
  const inFlight = new Set();
  const finished = [];
  let lastActivity = Date.now();
  page.on('request', (request) => {
    // The live-inbox stream stays open by design; it is no part of loading the page.
    if (request.resourceType() !== 'eventsource') inFlight.add(request);
    lastActivity = Date.now();
  });
  page.on('requestfinished', (request) => {
    inFlight.delete(request);
    finished.push(request);
    lastActivity = Date.now();
  });
  page.on('requestfailed', (request) => {
    inFlight.delete(request);
    lastActivity = Date.now();
  });
  await page.goto(`${origin}${path}`);
  await ready(page);
  await waitFor(`${path}: quiet network`, () => inFlight.size === 0 && Date.now() - lastActivity >= QUIET_MS);
  const responses = [];
  for (const request of finished) {
    const response = await request.response();
    if (!response || request.resourceType() === 'eventsource') continue;
    const sizes = await request.sizes();
    const decoded = (await response.body().catch(() => Buffer.alloc(0))).length;
    responses.push({
      type: request.resourceType(),
      body: sizes.responseBodySize,
      headers: sizes.responseHeadersSize,
      decoded,
    });
  }
  await context.close();
  return responses;
}

function report(label, responses) {
  const byType = new Map();
  for (const { type, body, headers, decoded } of responses) {
    const sum = byType.get(type) ?? { count: 0, body: 0, headers: 0, decoded: 0 };
    byType.set(type, {
      count: sum.count + 1,
      body: sum.body + body,
      headers: sum.headers + headers,
      decoded: sum.decoded + decoded,
    });
  }
  const body = responses.reduce((sum, entry) => sum + entry.body, 0);
  const headers = responses.reduce((sum, entry) => sum + entry.headers, 0);
  console.log(
    `${label}: ${kib(body)} of bodies as sent (${body} bytes), ${kib(body + headers)} with headers, in ${responses.length} responses`,
  );
  for (const [type, sum] of [...byType].sort((a, b) => b[1].body - a[1].body)) {
    console.log(
      `  ${type.padEnd(10)} ${String(sum.count).padStart(3)} × ${kib(sum.body).padStart(10)} (${sum.body} bytes; with headers ${kib(sum.body + sum.headers)}; decoded ${kib(sum.decoded)})`,
    );
  }
}

async function transfer(origin, token) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: ['--headless=new', '--no-sandbox'] });
  try {
    const home = await coldLoad(browser, origin, '/home', (page) =>
      page.getByRole('button', { name: '注册 / 登录' }).first().waitFor(),
    );
    report('cold /home', home);
    const inbox = await coldLoad(
      browser,
      origin,
      '/user/inbox',
      (page) => page.getByRole('button', { name: '写邮件' }).waitFor(),
      token,
    );
    report('cold /user/inbox (logged in)', inbox);
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse with a preset's configuration (undefined: its default, the mobile one). It drives its
 * own Chromium over the DevTools port, a fresh profile per run.
 */
async function lighthouseScore(url, preset, config) {
  const { default: lighthouse } = await import('lighthouse');
  const runs = [];
  for (let run = 0; run < lighthouseRuns; run++) {
    const port = await freePort();
    const profile = mkdtempSync(join(tmpdir(), 'youju-lighthouse-'));
    const chrome = spawn(
      executablePath,
      [
        '--headless=new',
        '--no-sandbox',
        `--remote-debugging-port=${port}`,
        `--user-data-dir=${profile}`,
        'about:blank',
      ],
      // Its own process group, so that its helper processes end with it.
      { stdio: 'ignore', detached: true },
    );
    try {
      await waitFor(
        'Chromium DevTools',
        async () => (await fetch(`http://127.0.0.1:${port}/json/version`)).ok,
      );
      const { lhr } = await lighthouse(
        url,
        { port, logLevel: 'error', onlyCategories: ['performance'] },
        config,
      );
      if (jsonDir) {
        mkdirSync(jsonDir, { recursive: true });
        writeFileSync(join(jsonDir, `${config ? 'desktop' : 'mobile'}-${run + 1}.json`), JSON.stringify(lhr));
      }
      const metric = (id) => lhr.audits[id].numericValue;
      runs.push({
        score: Math.round(lhr.categories.performance.score * 100),
        fcp: metric('first-contentful-paint'),
        lcp: metric('largest-contentful-paint'),
        tbt: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift'),
        si: metric('speed-index'),
        benchmarkIndex: lhr.environment.benchmarkIndex,
      });
    } finally {
      const exited = new Promise((resolve) => chrome.once('exit', resolve));
      process.kill(-chrome.pid, 'SIGTERM');
      await exited;
      // Chromium's helper processes may still be writing to the profile for a moment: a profile
      // left behind in the temporary directory is no reason to lose the measurement.
      await new Promise((resolve) => setTimeout(resolve, 500));
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10 });
      } catch (error) {
        console.warn(`(could not remove ${profile}: ${error.code})`);
      }
    }
  }
  runs.sort((a, b) => a.score - b.score);
  const median = runs[Math.floor(runs.length / 2)];
  console.log(
    `Lighthouse ${url}, ${preset} (median of ${runs.length}): performance ${median.score} (runs: ${runs.map((r) => r.score).join(', ')})`,
  );
  console.log(
    `  FCP ${median.fcp.toFixed(0)} ms, LCP ${median.lcp.toFixed(0)} ms, TBT ${median.tbt.toFixed(0)} ms, CLS ${median.cls.toFixed(3)}, Speed Index ${median.si.toFixed(0)} ms; this machine's benchmark index ${median.benchmarkIndex}`,
  );
}

if (!existsSync(executablePath)) {
  console.log(`web client: skipped (no Chromium at ${executablePath})`);
  process.exit(0);
}
spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'youju-bench-web-'));
const server = await startBuiltServer({ dataDir });
try {
  const token = await prepareAccount(server.origin);
  await transfer(server.origin, token);
  if (lighthouseRuns > 0) {
    await lighthouseScore(`${server.origin}/home`, 'mobile preset (the default: simulated slow 4G, 4× CPU)');
    const { default: desktop } = await import('lighthouse/core/config/desktop-config.js');
    await lighthouseScore(
      `${server.origin}/home`,
      'desktop preset (simulated 10 Mbit/s, no CPU slowdown)',
      desktop,
    );
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
