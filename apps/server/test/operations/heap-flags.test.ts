import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testEngine } from '../support/test-server.js';

// src/heap.ts, in a process started as `npm start` starts the server (a 4 MiB semi-space on the
// command line): the main thread keeps its young generation, and a worker started afterwards gets
// the young generation its resourceLimits ask for (here 6 MiB, smaller than the main thread's), not the main
// thread's. Each thread keeps objects alive across scavenges so that V8 grows its new space to
// the most it may.
const heapModule = fileURLToPath(new URL('../../dist/heap.js', import.meta.url));
const GROW = `
  const { getHeapSpaceStatistics } = await import('node:v8');
  const ring = new Array(300000);
  let most = 0;
  for (let i = 0; i < 6e6; i++) {
    ring[i % 300000] = { i, s: 'x' + i };
    if (i % 50000 === 0) most = Math.max(most, getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
  }
  const mib = most / 1048576;`;

async function newSpaces(tune: boolean): Promise<{ main: number; worker: number }> {
  const script = `
    const { Worker } = await import('node:worker_threads');
    ${tune ? `(await import(${JSON.stringify(heapModule)})).tuneHeap();` : ''}
    const worker = await new Promise((resolve, reject) => {
      new Worker(${JSON.stringify(`(async () => { ${GROW}; (await import('node:worker_threads')).parentPort.postMessage(mib); })()`)},
        { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 6 } }).once('message', resolve).once('error', reject);
    });
    ${GROW}
    console.log(JSON.stringify({ main: mib, worker }));`;
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--max-semi-space-size=4',
    '--input-type=module',
    '-e',
    script,
  ]);
  return JSON.parse(stdout) as { main: number; worker: number };
}

// No database in it: run with the SQLite suite only (scripts/test.mjs runs the server suite twice).
describe.skipIf(testEngine === 'postgres')('heap settings', () => {
  it('leaves a worker its own young generation, the main thread the command line’s', async () => {
    const tuned = await newSpaces(true);
    expect(tuned.main).toBe(8); // two semi-spaces of 4 MiB
    expect(tuned.worker).toBeLessThanOrEqual(4); // 6 MiB: two semi-spaces of 2 MiB (and its large-object share)
    // Without tuneHeap the command line's flag wins in the worker too: what heap.ts undoes.
    expect((await newSpaces(false)).worker).toBe(8);
  });
});
