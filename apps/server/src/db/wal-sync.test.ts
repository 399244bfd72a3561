import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { createWalSync } from './wal-sync.js';

describe('WAL sync by the caller', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'youju-wal-sync-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('shares one sync among the callers that arrive while another runs', async () => {
    const path = join(dir, 'file-wal');
    await writeFile(path, 'frames');
    const wal = createWalSync(path);
    const sync = () => wal.sync();
    const first = sync();
    const second = sync();
    const third = sync();
    // The first starts at once; the others started too late for it and share the next one.
    expect(second).toBe(third);
    expect(second).not.toBe(first);
    await Promise.all([first, second, third]);
    // Once idle, a new call starts a new sync.
    const fourth = sync();
    expect(fourth).not.toBe(second);
    await fourth;
    await wal.close();
  });

  it('fails rather than acknowledging when the file is not there', async () => {
    const wal = createWalSync(join(dir, 'missing-wal'));
    await expect(wal.sync()).rejects.toThrow(/ENOENT/);
    // Tried again at the next sync, once the file is there.
    await writeFile(join(dir, 'missing-wal'), 'frames');
    await expect(wal.sync()).resolves.toBeUndefined();
    await wal.close();
  });

  it('opens a SQLite connection that commits without syncing and leaves the sync to its caller', async () => {
    const handle = openDatabase({ databaseUrl: null, dataDir: join(dir, 'db'), walSync: 'caller' });
    const plain = openDatabase({ databaseUrl: null, dataDir: join(dir, 'db-plain') });
    try {
      const level = async (h: typeof handle) =>
        (await sql<{ synchronous: number }>`pragma synchronous`.execute(h.db)).rows[0]?.synchronous;
      expect(await level(handle)).toBe(1); // NORMAL
      expect(await level(plain)).toBe(2); // FULL
      expect(plain.syncWal).toBeNull();
      await sql`create table t (x integer)`.execute(handle.db);
      await sql`insert into t (x) values (1)`.execute(handle.db);
      await expect(handle.syncWal?.()).resolves.toBeUndefined();
    } finally {
      await handle.close();
      await plain.close();
    }
  });

  it("caps a SQLite connection's page cache when asked, and keeps better-sqlite3's 16 MiB otherwise", async () => {
    const small = openDatabase({ databaseUrl: null, dataDir: join(dir, 'db-cache'), pageCacheKiB: 2048 });
    const plain = openDatabase({ databaseUrl: null, dataDir: join(dir, 'db-cache-plain') });
    try {
      const size = async (h: typeof small) =>
        (await sql<{ cache_size: number }>`pragma cache_size`.execute(h.db)).rows[0]?.cache_size;
      expect(await size(small)).toBe(-2048);
      expect(await size(plain)).toBe(-16000);
    } finally {
      await small.close();
      await plain.close();
    }
  });
});
