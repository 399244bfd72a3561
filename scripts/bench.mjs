#!/usr/bin/env node
// `npm run bench`: measurements, never assertions. Builds if needed, then reports
//  - the web client's size: entry chunk, first page and all JavaScript, raw and brotli (as sent);
//  - API latency on the built server (SQLite in a temp dir): getVar, login-protected list calls;
//  - the web client's time to first render in headless Chromium (when /usr/bin/chromium exists);
//    bench/web-client.mjs (run below with the other benchmarks) measures its transfer sizes and
//    Lighthouse score.
// Benchmarks of mail live beside it in bench/ and are run from here when present.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync } from 'node:zlib';
import { logIn, startBuiltServer } from '../bench/tools/server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });

function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** A built file's size as sent to a browser that accepts brotli: its .br beside it (see apps/web/build). */
function brotliSize(file) {
  const compressed = `${file}.br`;
  return existsSync(compressed) ? statSync(compressed).size : brotliCompressSync(readFileSync(file)).length;
}

function webSize() {
  const dist = join(root, 'apps/web/dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entry = /<script[^>]+src="\/?([^"]+\.js)"/.exec(html)?.[1];
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+)"/g)].map(
    (m) => m[1],
  );
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/?([^"]+)"/g)].map((m) => m[1]);
  const sum = (files, size) => files.reduce((total, file) => total + size(join(dist, file)), 0);
  const firstPage = [entry, ...preloads].filter(Boolean);
  const allJs = readdirSync(join(dist, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => join('assets', file));
  const raw = (file) => statSync(file).size;
  console.log(
    `web: entry chunk ${kib(raw(join(dist, entry)))} (brotli ${kib(brotliSize(join(dist, entry)))}); ` +
      `first page JS ${kib(sum(firstPage, raw))} (brotli ${kib(sum(firstPage, brotliSize))}) in ${firstPage.length} files, ` +
      `CSS ${kib(sum(styles, raw))} (brotli ${kib(sum(styles, brotliSize))}); ` +
      `all JS ${kib(sum(allJs, raw))} (brotli ${kib(sum(allJs, brotliSize))}) in ${allJs.length} files`,
  );
}

async function latency(label, url, init, total = 2000, concurrency = 16) {
  const times = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const response = await fetch(url, init);
        await response.arrayBuffer();
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(
    `${label}: ${(times.length / seconds).toFixed(0)} req/s, p50 ${pick(0.5)} ms, p99 ${pick(0.99)} ms (${times.length} requests, ${concurrency} concurrent)`,
  );
}

async function api() {
  const dataDir = mkdtempSync(join(tmpdir(), 'youju-bench-'));
  const server = await startBuiltServer({ dataDir });
  const { base } = server;
  try {
    const auth = { headers: { authorization: `Bearer ${await logIn(base)}` } };
    await latency('getVar (anonymous)', `${base}/getVar`, {});
    await latency('getVar (logged in)', `${base}/getVar`, auth);
    await latency('user/getDomains', `${base}/user/getDomains`, auth);
    await firstRender(server.origin);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Time to first render of /home in headless Chromium, each load in a fresh context (empty cache):
 * first contentful paint, and when the page's own content (the one-click mailbox button) shows.
 */
async function firstRender(origin) {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    console.log('first render: skipped (no Chromium)');
    return;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  const paints = [];
  const ready = [];
  try {
    for (let run = 0; run < 7; run++) {
      const context = await browser.newContext({ locale: 'zh-CN' });
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(`${origin}/home`);
      await page.getByRole('button').first().waitFor();
      ready.push(Date.now() - started);
      // The paint entry is recorded once the frame is presented, a moment after it is drawn.
      await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      paints.push(
        await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0),
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)].toFixed(0);
  console.log(
    `first render of /home (loopback, empty cache, median of ${ready.length}): first contentful paint ${median(paints)} ms, content shown ${median(ready)} ms`,
  );
}

webSize();
await api();
const benchDir = join(root, 'bench');
if (existsSync(benchDir)) {
  for (const file of readdirSync(benchDir)
    .filter((f) => f.endsWith('.mjs'))
    .sort()) {
    console.log(`\n--- ${file}`);
    spawnSync(process.execPath, [join(benchDir, file)], { cwd: root, stdio: 'inherit' });
  }
}
