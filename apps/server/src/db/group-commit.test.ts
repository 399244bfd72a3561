import type { Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';
import { createGroupCommit } from './group-commit.js';
import type { Database } from './schema.js';

describe('group commit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('stores jobs queued together in one transaction, rolling back only the one that fails', async () => {
    const db = server.app.database.db;
    const group = createGroupCommit(db);
    const insert = (key: string) =>
      group.run(async (trx) => {
        await trx
          .insertInto('rate_counters')
          .values({ name: 'group-commit-test', key, bucket: 0, count: 1, expires_at: 0 })
          .execute();
        if (key === 'k3') throw new Error('job k3 fails after writing');
        return key;
      });
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => insert(`k${index}`)));
    expect(results.map((result) => result.status)).toEqual([
      ...Array(3).fill('fulfilled'),
      'rejected',
      ...Array(6).fill('fulfilled'),
    ]);
    expect((results[3] as PromiseRejectedResult).reason.message).toBe('job k3 fails after writing');
    const rows = await db
      .selectFrom('rate_counters')
      .select('key')
      .where('name', '=', 'group-commit-test')
      .orderBy('key')
      .execute();
    expect(rows.map((row) => row.key)).toEqual(['k0', 'k1', 'k2', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
  });
});

describe('group commit reservations', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('holds the commit for deliveries still being prepared, then commits them together', async () => {
    // A long bound on the wait: on a loaded machine two turns of the loop can take longer than the
    // real 20 ms, which would commit the first job alone (by design) and make the test flaky.
    const group = createGroupCommit(server.app.database.db, { maxWaitMs: 10_000 });
    const events: string[] = [];
    const job = (key: string) => async (trx: Transaction<Database>) => {
      events.push(`ran ${key}`);
      await trx
        .insertInto('rate_counters')
        .values({ name: 'group-commit-reserve', key, bucket: 0, count: 1, expires_at: 0 })
        .execute();
    };
    const first = group.reserve();
    const second = group.reserve();
    const refused = group.reserve();
    const stored = first.run(job('first')).then(() => events.push('first acknowledged'));
    // Without the reservations the first job would commit alone in the next turn of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const storedToo = second.run(job('second')).then(() => events.push('second acknowledged'));
    // A delivery refused before it stores anything gives its place back.
    refused.release();
    await Promise.all([stored, storedToo]);
    expect(events).toEqual(['ran first', 'ran second', 'first acknowledged', 'second acknowledged']);
  });

  it('commits without a slow delivery after a short wait', async () => {
    const group = createGroupCommit(server.app.database.db);
    const slow = group.reserve();
    const quick = group.reserve();
    await expect(quick.run(async () => 'stored')).resolves.toBe('stored');
    slow.release();
  });
});

describe('group commit with a separate sync (the store worker)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const row = (name: string, key: string) => async (trx: Transaction<Database>) => {
    await trx.insertInto('rate_counters').values({ name, key, bucket: 0, count: 1, expires_at: 0 }).execute();
    return key;
  };

  it('acknowledges a committed batch only once the sync after its commit is done', async () => {
    const db = server.app.database.db;
    const syncs: { resolve: () => void }[] = [];
    const group = createGroupCommit(db, {
      durable: () => new Promise<void>((resolve) => syncs.push({ resolve })),
    });
    let acknowledged = false;
    const job = group.run(row('group-commit-sync', 'a')).then((key) => {
      acknowledged = true;
      return key;
    });
    // Committed (visible to others) but not yet synced: no acknowledgement.
    for (let i = 0; i < 200 && syncs.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(syncs).toHaveLength(1);
    const committed = await db
      .selectFrom('rate_counters')
      .select('key')
      .where('name', '=', 'group-commit-sync')
      .execute();
    expect(committed.map((r) => r.key)).toEqual(['a']);
    await new Promise((r) => setTimeout(r, 20));
    expect(acknowledged).toBe(false);
    // The next batch commits while the first one's sync is still running.
    const next = group.run(row('group-commit-sync', 'b'));
    for (let i = 0; i < 200 && syncs.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(syncs).toHaveLength(2);
    syncs[0]?.resolve();
    await expect(job).resolves.toBe('a');
    syncs[1]?.resolve();
    await expect(next).resolves.toBe('b');
  });

  it('acknowledges nothing of a batch whose sync failed', async () => {
    const group = createGroupCommit(server.app.database.db, {
      durable: () => Promise.reject(new Error('EIO: the disk failed')),
    });
    const results = await Promise.allSettled([
      group.run(row('group-commit-sync-fails', 'x')),
      group.run(row('group-commit-sync-fails', 'y')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).toBe('EIO: the disk failed');
  });
});
