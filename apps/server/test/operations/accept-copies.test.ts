import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCEPT_COPIES, acceptOnCopies } from '../../src/lib/accept-copies.js';
import { testEngine } from '../support/test-server.js';

const log = { warn: (message: string) => console.warn(message) };

/** A plain HTTP server on a free loopback port. */
async function httpServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port };
}

/** The helper processes (accept-copies-helper.js) this process started that still run. */
function helpersRunning(): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const parent = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
      if (command.includes('accept-copies-helper') && Number(parent) === process.pid) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

/** What a connection to `port` gets: the first line of the HTTP answer, or how it failed. */
function firstLine(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('connect', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.on('close', () => resolve(answer.split('\r\n')[0] || 'closed'));
  });
}

// libuv accepts one connection a turn of the event loop; the copies of a listening socket let a busy
// loop take more (lib/accept-copies.ts). A real helper process, real sockets and a real HTTP server.
// No database in it: run with the SQLite suite only (scripts/test.mjs runs the server suite twice).
describe.skipIf(testEngine === 'postgres')('accepting on copies of a listening socket', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('takes a queue of connections several a turn, and each is answered by the server', async () => {
    const { server, port } = await httpServer();
    const copies = await acceptOnCopies([server], { log });
    cleanups.push(() => {
      copies.close();
      server.close();
    });
    expect(copies.counts).toEqual([ACCEPT_COPIES]);
    // The helper has gone once it handed the copies over.
    for (let i = 0; i < 50 && helpersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(helpersRunning()).toBe(0);

    // Another process opens 40 connections while this loop is held, so that all of them wait in
    // the kernel's queue when it runs again: the first turn then takes one per descriptor.
    const client = spawn(
      process.execPath,
      [
        '-e',
        `const net = require('node:net');
         let ok = 0, done = 0;
         for (let i = 0; i < 40; i++) {
           const s = net.connect(${port}, '127.0.0.1', () => s.write('GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n'));
           let a = '';
           s.on('data', (c) => (a += c));
           s.on('close', () => { if (a.startsWith('HTTP/1.1 200')) ok++; if (++done === 40) console.log(ok); });
           s.on('error', () => {});
         }`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    client.stdout.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => client.on('exit', resolve));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
    await exited;
    expect(output.trim()).toBe('40');
    expect(copies.accepted()).toBeGreaterThan(0);
  });

  it('refuses what a copy takes once the server stops listening, and closes with close()', async () => {
    const { server, port } = await httpServer();
    const copies = await acceptOnCopies([server], { log });
    cleanups.push(() => copies.close());
    expect(await firstLine(port)).toBe('HTTP/1.1 200 OK');

    server.close();
    // The copies still hold the socket: a connection is taken, then closed without an answer.
    expect(await firstLine(port)).not.toMatch(/^HTTP/);
    copies.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(await firstLine(port)).toBe('ECONNREFUSED');
  });

  it('gives nothing to a server that is not listening, and starts no helper', async () => {
    const server = createServer();
    const copies = await acceptOnCopies([server], { log });
    expect(copies.counts).toEqual([0]);
    expect(helpersRunning()).toBe(0);
  });
});
