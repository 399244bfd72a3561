#!/usr/bin/env node
// Compares two folders of screenshots (issue 17 item 1: "compare screenshots across changes"): the
// phone test writes one PNG per screen and role (apps/web/e2e/phone.test.ts, YOUJU_SCREENSHOT_DIR).
// Take them before and after a change, then:
//
//   node scripts/compare-screenshots.mjs BEFORE_DIR AFTER_DIR [DIFF_DIR]
//
// prints, for each screen, whether it changed: the share of pixels that differ and whether its size
// changed, the most changed first, and screens found in one folder only. DIFF_DIR (default: a
// temporary folder) receives an image per changed screen: the "after" screenshot faded, with the
// differing pixels in red. The pixels are compared in headless Chromium (the same Debian chromium
// the browser tests use), so nothing else is needed. It measures and never fails a build: a real
// change shows up as well as a regression; the reader decides. Exit status 2 only on a usage error.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [before, after, diffArgument] = process.argv.slice(2);
if (!before || !after || !existsSync(before) || !existsSync(after)) {
  console.error('usage: node scripts/compare-screenshots.mjs BEFORE_DIR AFTER_DIR [DIFF_DIR]');
  process.exit(2);
}
const diffDir = diffArgument ?? mkdtempSync(join(tmpdir(), 'youju-screenshot-diff-'));
mkdirSync(diffDir, { recursive: true });

/** A pixel counts as changed when a channel differs by more than this (antialiasing noise). */
const TOLERANCE = 16;

const pngs = (dir) => new Set(readdirSync(dir).filter((name) => name.endsWith('.png')));
const beforeFiles = pngs(before);
const afterFiles = pngs(after);
const both = [...beforeFiles].filter((name) => afterFiles.has(name)).sort();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  const rows = [];
  for (const name of both) {
    const dataUrl = (dir) => `data:image/png;base64,${readFileSync(join(dir, name)).toString('base64')}`;
    const result = await page.evaluate(
      async ({ a, b, tolerance }) => {
        const load = (src) =>
          new Promise((resolve, reject) => {
            const image = new Image();
            image.onload = () => resolve(image);
            image.onerror = () => reject(new Error('not a readable PNG'));
            image.src = src;
          });
        const [first, second] = await Promise.all([load(a), load(b)]);
        const width = Math.max(first.width, second.width);
        const height = Math.max(first.height, second.height);
        const pixels = (image) => {
          const canvas = new OffscreenCanvas(width, height);
          const context = canvas.getContext('2d');
          context.fillStyle = '#fff';
          context.fillRect(0, 0, width, height);
          context.drawImage(image, 0, 0);
          return context.getImageData(0, 0, width, height);
        };
        const one = pixels(first).data;
        const two = pixels(second);
        const out = new ImageData(width, height);
        let changed = 0;
        for (let i = 0; i < one.length; i += 4) {
          const differs =
            Math.abs(one[i] - two.data[i]) > tolerance ||
            Math.abs(one[i + 1] - two.data[i + 1]) > tolerance ||
            Math.abs(one[i + 2] - two.data[i + 2]) > tolerance;
          if (differs) {
            changed++;
            out.data.set([255, 0, 0, 255], i);
          } else {
            // The "after" image, faded, so that the red stands out where it is.
            const grey = (two.data[i] + two.data[i + 1] + two.data[i + 2]) / 3;
            const faded = 255 - (255 - grey) * 0.25;
            out.data.set([faded, faded, faded, 255], i);
          }
        }
        let diff = null;
        if (changed > 0) {
          const canvas = new OffscreenCanvas(width, height);
          canvas.getContext('2d').putImageData(out, 0, 0);
          const blob = await canvas.convertToBlob({ type: 'image/png' });
          const bytes = new Uint8Array(await blob.arrayBuffer());
          let binary = '';
          for (let i = 0; i < bytes.length; i += 0x8000)
            binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          diff = btoa(binary);
        }
        return {
          changed,
          total: width * height,
          sizes: [`${first.width}×${first.height}`, `${second.width}×${second.height}`],
          diff,
        };
      },
      { a: dataUrl(before), b: dataUrl(after), tolerance: TOLERANCE },
    );
    if (result.diff) writeFileSync(join(diffDir, name), Buffer.from(result.diff, 'base64'));
    rows.push({ name, ...result });
  }
  rows.sort((x, y) => y.changed / y.total - x.changed / x.total);
  for (const row of rows) {
    const share = ((100 * row.changed) / row.total).toFixed(2);
    const size = row.sizes[0] === row.sizes[1] ? row.sizes[0] : `${row.sizes[0]} → ${row.sizes[1]}`;
    console.log(
      `${row.changed === 0 ? 'same   ' : 'changed'}  ${share.padStart(6)} %  ${size.padEnd(22)} ${row.name}`,
    );
  }
  for (const name of [...beforeFiles].filter((file) => !afterFiles.has(file)).sort())
    console.log(`gone                                    ${name}`);
  for (const name of [...afterFiles].filter((file) => !beforeFiles.has(file)).sort())
    console.log(`new                                     ${name}`);
  const changed = rows.filter((row) => row.changed > 0).length;
  console.log(`${changed} of ${rows.length} screens changed; differences drawn in ${diffDir}`);
} finally {
  await browser.close();
}
