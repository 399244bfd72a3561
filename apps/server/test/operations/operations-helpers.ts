import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { expectOk, getRaw } from '../support/api.js';
import type { ServerProcess, ServerStore } from '../support/server-process.js';
import { sendMail } from '../support/smtp-client.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `youju` command (scripts/youju.mjs, what `npx youju` starts) as a child process. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, ['scripts/youju.mjs', ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A failure of the command: exit status 1 and one line on stderr. */
export function expectOneLineFailure(result: CliResult, contains: string): void {
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain(contains);
}

/** A data directory on SQLite, whatever engine the run uses. */
export async function sqliteStore(): Promise<ServerStore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'youju-sqlite-'));
  return { dataDir, databaseUrl: '', remove: () => rm(dataDir, { recursive: true, force: true }) };
}

/** A message with a random body: every third one some 600 KiB, so its raw bytes span chunks. */
export function testMessage(to: string, subject: string, index: number): Buffer {
  const payload = randomBytes(index % 3 === 0 ? 600 * 1024 : 1500)
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
  return Buffer.from(
    `From: <sender@sender.example>\r\nTo: <${to}>\r\nSubject: ${subject}\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n${payload}\r\n`,
  );
}

/** Delivers one message and says whether the server acknowledged it (250 after DATA). */
export async function deliver(port: number, to: string, content: Buffer): Promise<boolean> {
  const result = await sendMail(port, { to: [to], content });
  return result.data?.code === 250;
}

/** Every message of the caller's inbox: subject → id. */
export async function inboxBySubject(server: ServerProcess, token: string): Promise<Map<string, number>> {
  const stored = new Map<string, number>();
  for (let page = 1; ; page++) {
    const list = await server.api('GET', `user/getInbox?pageSize=100&page=${page}`, { token });
    expectOk(list.body);
    for (const item of list.body.data.list) stored.set(item.subject, item.id);
    if (list.body.data.list.length < 100) break;
  }
  return stored;
}

/** The raw bytes of a stored message, as the API serves them. */
export async function rawOf(server: ServerProcess, token: string, id: number): Promise<Buffer> {
  const { bytes } = await getRaw(server, `user/raw/${id}?token=${token}`);
  return bytes;
}

export async function sha256Of(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/** Logs in and returns the token. */
export async function login(server: ServerProcess, username: string, password: string): Promise<string> {
  const { body } = await server.api('POST', 'login', { body: { username, password } });
  expectOk(body);
  return body.data.token;
}
