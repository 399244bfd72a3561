import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';
import { createGroupCommit } from './group-commit.js';

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
