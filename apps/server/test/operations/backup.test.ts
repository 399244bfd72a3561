import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { appliedMigrations, migrate, migrationNames } from '../../src/db/migrate.js';
import { encodeHeader, endOfArchive, padding } from '../../src/protocols/tar/ustar.js';
import { expectOk } from '../support/api.js';
import {
  createServerStore,
  type ServerProcess,
  type ServerStore,
  startServerProcess,
  useServerStore,
} from '../support/server-process.js';
import { splitAddedHeaders } from '../support/smtp-client.js';
import { testEngine } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';
import {
  deliver,
  expectOneLineFailure,
  inboxBySubject,
  login,
  rawOf,
  runCli,
  testMessage,
} from './operations-helpers.js';

/**
 * `youju backup` and `youju restore` run as the operator runs them (the built command in a child
 * process) against the built server in another, on the run's engine: a backup taken while mail
 * keeps arriving restores into a fresh data directory (and database) that serves every message
 * acknowledged before it began, byte for byte, and no message without its raw bytes.
 */

const ADMIN = { username: 'backupadmin', password: 'backup-admin-password' };
const store = useServerStore();
const extraStores: ServerStore[] = [];
afterAll(async () => {
  for (const extra of extraStores) await extra.remove();
});

async function freshStore(): Promise<ServerStore> {
  const created = await createServerStore();
  extraStores.push(created);
  return created;
}

function envOf(target: ServerStore): Record<string, string> {
  return { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl };
}

function startOn(target: ServerStore, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerProcess(target, {
    MAIL_HOSTNAME: 'mx.backup.test',
    INIT_ADMIN_USER: ADMIN.username,
    INIT_ADMIN_PASSWORD: ADMIN.password,
    ...env,
  });
}

async function tableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      "select count(*) from information_schema.tables where table_schema = 'public'",
    );
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

/** An archive of hand-made tar entries (any name and type), gzip-compressed. */
function craftedArchive(entries: Array<{ path: string; type?: string; content: Buffer }>): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const header = encodeHeader({ path: 'placeholder', size: entry.content.length, mode: 0o600, mtime: 0 });
    header.fill(0, 0, 100);
    header.write(entry.path, 0, 'utf8');
    header[156] = (entry.type ?? '0').charCodeAt(0);
    header.fill(0x20, 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    blocks.push(header, entry.content, padding(entry.content.length));
  }
  blocks.push(endOfArchive());
  return gzipSync(Buffer.concat(blocks));
}

describe('youju backup and restore', () => {
  let archive = '';
  let source: ServerProcess;

  it('takes a consistent backup while mail keeps arriving, and restores it byte for byte', async () => {
    source = await startOn(store());
    const token = await login(source, ADMIN.username, ADMIN.password);
    const domain = await source.api('POST', 'user/addDomain', { token, body: { name: 'backup.youju.test' } });
    expectOk(domain.body);
    const box = await source.api('POST', 'user/createEmail', {
      token,
      body: { domainId: domain.body.data.id, localPart: 'keep' },
    });
    expectOk(box.body);
    const address = box.body.data.address;

    const sent = new Map<string, Buffer>();
    const before = new Set<string>();
    for (let index = 0; index < 6; index++) {
      const subject = `before-${index}`;
      const content = testMessage(address, subject, index);
      sent.set(subject, content);
      expect(await deliver(source.smtpPort, address, content)).toBe(true);
      before.add(subject);
    }

    // Senders keep delivering while the backup runs.
    let stop = false;
    let next = 0;
    const sender = async () => {
      while (!stop) {
        const index = next++;
        const subject = `during-${index}`;
        const content = testMessage(address, subject, index);
        sent.set(subject, content);
        await deliver(source.smtpPort, address, content).catch(() => false);
      }
    };
    const senders = Array.from({ length: 3 }, sender);
    await waitFor(() => next >= 3, { timeoutMs: 20_000, what: 'deliveries under way' });
    archive = join(store().dataDir, '..', `backup-${Date.now()}.tar.gz`);
    const backup = await runCli(['backup', '--out', archive], envOf(store()));
    stop = true;
    await Promise.all(senders);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('备份完成');
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    expect(next).toBeGreaterThan(3);

    const target = await freshStore();
    const restored = await runCli(['restore', archive], envOf(target));
    expect(restored.code, restored.stderr).toBe(0);
    // the keys of DATA_DIR came along, private
    const key = join(target.dataDir, 'self-signed', 'privkey.pem');
    expect(await readFile(key)).toEqual(await readFile(join(store().dataDir, 'self-signed', 'privkey.pem')));
    expect((await stat(key)).mode & 0o777).toBe(0o600);

    const copy = await startOn(target);
    try {
      const copyToken = await login(copy, ADMIN.username, ADMIN.password);
      const stored = await inboxBySubject(copy, copyToken);
      for (const subject of before) expect(stored.has(subject), `${subject} missing`).toBe(true);
      // whatever the snapshot caught of the concurrent mail is whole: row, raw bytes and all
      for (const [subject, id] of stored) {
        const raw = await rawOf(copy, copyToken, id);
        // As received, after the Authentication-Results header of the inbound checks.
        const message = splitAddedHeaders(raw).message;
        expect(message.equals(sent.get(subject) ?? Buffer.alloc(0)), `${subject} differs`).toBe(true);
      }
    } finally {
      await copy.stop();
    }
  }, 180_000);

  it('refuses a data directory that is not empty, and a database that is not', async () => {
    const target = await freshStore();
    await writeFile(join(target.dataDir, 'something'), 'x');
    expectOneLineFailure(await runCli(['restore', archive], envOf(target)), '不是空的');
    if (testEngine === 'postgres') {
      const other = await freshStore();
      // the source's own database is not empty
      const refused = await runCli(['restore', archive], {
        DATA_DIR: other.dataDir,
        DATABASE_URL: store().databaseUrl,
      });
      expectOneLineFailure(refused, '不是空的');
      expect(await readdir(other.dataDir)).toEqual([]);
    }
  }, 60_000);

  it('checks every entry against the manifest before writing anything', async () => {
    const bytes = await readFile(archive);
    // a flipped byte in the compressed stream: gzip's CRC or a checksum catches it
    const damaged = Buffer.from(bytes);
    const at = Math.floor(damaged.length / 2);
    damaged[at] = (damaged[at] ?? 0) ^ 0x40;
    const damagedFile = `${archive}.damaged.tar.gz`;
    await writeFile(damagedFile, damaged);
    const target = await freshStore();
    expectOneLineFailure(await runCli(['restore', damagedFile], envOf(target)), '损坏');
    expect(await readdir(target.dataDir)).toEqual([]);
    if (target.databaseUrl) expect(await tableCount(target.databaseUrl)).toBe(0);
  }, 60_000);

  it('refuses entries that leave the data directory, links, and entries the manifest does not list', async () => {
    const manifest = Buffer.from(
      JSON.stringify({
        format: 'youju-backup',
        formatVersion: 1,
        youjuVersion: '0.1.0',
        engine: testEngine,
        createdAt: new Date().toISOString(),
        migrations: [],
        tables: [],
        entries: [{ path: 'files/ok', size: 2, sha256: 'x' }],
      }),
    );
    const cases: Array<[string, Buffer, string]> = [
      [
        'traversal',
        craftedArchive([
          { path: 'manifest.json', content: manifest },
          { path: '../evil', content: Buffer.from('x') },
        ]),
        '损坏',
      ],
      [
        'absolute',
        craftedArchive([
          { path: 'manifest.json', content: manifest },
          { path: '/tmp/evil', content: Buffer.from('x') },
        ]),
        '损坏',
      ],
      [
        'symlink',
        craftedArchive([
          { path: 'manifest.json', content: manifest },
          { path: 'files/ok', type: '2', content: Buffer.alloc(0) },
        ]),
        '损坏',
      ],
      [
        'unlisted',
        craftedArchive([
          { path: 'manifest.json', content: manifest },
          { path: 'files/other', content: Buffer.from('ok') },
        ]),
        '未列出',
      ],
      [
        'checksum',
        craftedArchive([
          { path: 'manifest.json', content: manifest },
          { path: 'files/ok', content: Buffer.from('ok') },
        ]),
        '校验和',
      ],
    ];
    for (const [name, bytes, reason] of cases) {
      const file = join(store().dataDir, '..', `crafted-${name}-${Date.now()}.tar.gz`);
      await writeFile(file, bytes);
      const target = await freshStore();
      const result = await runCli(['restore', file], envOf(target));
      expectOneLineFailure(result, reason);
      expect(await readdir(target.dataDir), name).toEqual([]);
      expect(await readdir(join(target.dataDir, '..')).then((names) => names.includes('evil')), name).toBe(
        false,
      );
    }
  }, 120_000);

  it('restores a backup of an older version, whose migrations then catch up', async () => {
    const older = await freshStore();
    const names = migrationNames();
    const database = openDatabase({ databaseUrl: older.databaseUrl || null, dataDir: older.dataDir });
    await migrate(database.db as never, database.engine, names.slice(0, -1));
    await database.close();
    const file = join(store().dataDir, '..', `older-${Date.now()}.tar.gz`);
    const backup = await runCli(['backup', '--out', file], envOf(older));
    expect(backup.code, backup.stderr).toBe(0);
    const target = await freshStore();
    const restored = await runCli(['restore', file], envOf(target));
    expect(restored.code, restored.stderr).toBe(0);
    const copy = openDatabase({ databaseUrl: target.databaseUrl || null, dataDir: target.dataDir });
    try {
      // PostgreSQL: brought up to date by the restore; SQLite: as saved, the server migrates at start
      expect(await appliedMigrations(copy.db as never)).toEqual(
        testEngine === 'postgres' ? names : names.slice(0, -1),
      );
    } finally {
      await copy.close();
    }
  }, 60_000);

  it('answers usage mistakes with one line and exit status 1', async () => {
    expectOneLineFailure(await runCli(['backup'], envOf(store())), '--out');
    expectOneLineFailure(await runCli(['restore'], envOf(store())), '备份文件');
    expectOneLineFailure(await runCli(['restore', '/nonexistent/file.tar.gz'], envOf(store())), '找不到');
    expectOneLineFailure(await runCli(['frobnicate'], envOf(store())), '未知命令');
    const help = await runCli(['--help'], envOf(store()));
    expect(help.code).toBe(0);
    for (const command of ['backup --out', 'restore FILE', 'migrate --to'])
      expect(help.stdout).toContain(command);
  }, 60_000);

  it('takes scheduled backups into DATA_DIR/backups and keeps the newest backupKeep', async () => {
    await source.stop();
    const folder = join(store().dataDir, 'backups');
    await mkdir(folder, { recursive: true });
    const old = [
      'youju-20200101-000000.tar.gz',
      'youju-20200102-000000.tar.gz',
      'youju-20200103-000000.tar.gz',
    ];
    for (const [index, name] of old.entries()) {
      await writeFile(join(folder, name), 'old');
      const time = new Date(Date.UTC(2020, 0, index + 1));
      await utimes(join(folder, name), time, time);
    }
    const server = await startOn(store(), { BACKUP_CHECK_MS: '200' });
    try {
      const token = await login(server, ADMIN.username, ADMIN.password);
      const changed = await server.api('POST', 'user/updateSetting', {
        token,
        body: { system: { backupIntervalHours: 24, backupKeep: 2 } },
      });
      expectOk(changed.body);
      expect(changed.body.data.system).toMatchObject({ backupIntervalHours: 24, backupKeep: 2 });
      const names = await waitFor(
        async () => {
          const found = (await readdir(folder)).filter((name) => name.endsWith('.tar.gz')).sort();
          return found.length === 2 && !found.includes(old[1] as string) ? found : null;
        },
        { timeoutMs: 60_000, what: 'a scheduled backup and the old ones pruned' },
      );
      expect(names[0]).toBe(old[2]);
      const fresh = join(folder, names[1] as string);
      expect((await stat(fresh)).mode & 0o777).toBe(0o600);
      // a real, restorable backup, which does not contain the backups folder itself
      const target = await freshStore();
      const restored = await runCli(['restore', fresh], envOf(target));
      expect(restored.code, restored.stderr).toBe(0);
      expect(await readdir(target.dataDir)).not.toContain('backups');
    } finally {
      await server.stop();
    }
  }, 120_000);
});
