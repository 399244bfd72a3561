import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseRateLimits } from '../../src/lib/database-rate-limits.js';
import { apiKeyOf, createUserWithDomain } from '../support/fixtures.js';
import { startTestServer, stopAll, type TestServer, testEngine } from '../support/test-server.js';
import { sleep } from '../support/wait-for.js';

describe('rate limits kept in the database', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('count in a sliding window per name and key, and reset', async () => {
    const limits = createDatabaseRateLimits(server.app.database.db);
    const a = limits('test-a', 60_000);
    const b = limits('test-b', 60_000);
    expect(await a.hit('1.2.3.4')).toBe(1);
    expect(await a.hit('1.2.3.4')).toBe(2);
    expect(await a.hit('5.6.7.8')).toBe(1);
    expect(await b.hit('1.2.3.4')).toBe(1);
    expect(await a.count('1.2.3.4')).toBe(2);
    await a.reset('1.2.3.4');
    expect(await a.count('1.2.3.4')).toBe(0);
    expect(await b.count('1.2.3.4')).toBe(1);
    // A window that has passed counts nothing (the passing time is the test).
    const short = limits('test-short', 20);
    await short.hit('k');
    await sleep(60);
    expect(await short.count('k')).toBe(0);
  });
});

/**
 * Two processes against one PostgreSQL, as a deployment with several server processes behind one
 * database runs: rate limits count together, so a second process is no way around them. SQLite
 * deployments are one process.
 */
describe.skipIf(testEngine !== 'postgres')('rate limits across processes on PostgreSQL', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startTestServer();
    second = await startTestServer({ env: { DATABASE_URL: first.config.databaseUrl ?? '' } });
  });
  afterAll(() => stopAll(second, first));

  it('locks an account after failed logins spread over both processes', async () => {
    const world = await createUserWithDomain(first, 'shared');
    const username = world.username;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const server = attempt % 2 === 0 ? first : second;
      const answer = await server.api('POST', 'login', { body: { username, password: 'wrong-password-1' } });
      statuses.push(answer.status);
    }
    // Five failures per account are allowed (the default), wherever they happened.
    expect(statuses.slice(0, 5).every((status) => status !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
    const locked = await first.api('POST', 'login', {
      body: { username, password: 'user-password-1' },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toMatch(/已临时锁定/);
  });

  it('limits an API key per minute across both processes', async () => {
    const world = await createUserWithDomain(first, 'openlimit');
    const key = await apiKeyOf(first, world.userToken);
    const call = (server: TestServer) =>
      server.api('GET', `open/getInbox?address=nobody@${world.domain}`, { headers: { 'x-api-key': key } });
    let refused = 0;
    for (let index = 0; index < 61; index++) {
      for (const answer of await Promise.all([call(first), call(second)]))
        if (answer.status === 429) refused++;
    }
    // 120 calls a minute per key in all: the two processes together got 122.
    expect(refused).toBe(2);
  });
});
