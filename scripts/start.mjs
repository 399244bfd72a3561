#!/usr/bin/env node
// `npm start`: build what is missing or stale, then run the server in this process's place.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_OPTIONS } from './server-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url))], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, [...SERVER_NODE_OPTIONS, 'apps/server/dist/server.js'], {
  cwd: root,
  env: { ...SERVER_ENV, ...process.env },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
