/**
 * `REDIS_URL`: events (new mail) and rate limits through a real Redis (Debian's redis-server on a
 * free loopback port, nothing saved), shared by two Youju servers. On PostgreSQL the two also share
 * one database, as a deployment of several processes does; on SQLite each has its own database, so
 * only what lives in Redis (the limits, the published events) is shared.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRateLimits } from '../../src/lib/rate-limiter.js';
import { connectRedis } from '../../src/lib/redis.js';
import { redisRateKey, redisRateLimits } from '../../src/lib/redis-rate-limits.js';
import { makeCertificate } from '../support/certificates.js';
import { addDomain, createAddress, createUserWithDomain, type MailWorld } from '../support/fixtures.js';
import { openEvents } from '../support/live-events.js';
import { type RedisServer, redisMissing, startRedisServer } from '../support/redis-server.js';
import { type ServerProcess, startServerProcess, useServerStore } from '../support/server-process.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, stopAll, type TestServer, testEngine } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

const quietLog = { info: () => {}, warn: () => {} };

/** The subjects of mail events seen on Redis's channel, read by a subscriber of the test's own. */
async function watchMailChannel(url: string) {
  const subscriber = new Redis(url, { lazyConnect: true });
  subscriber.on('error', () => {}); // reconnects by itself
  await subscriber.connect();
  const payloads: string[] = [];
  subscriber.on('message', (channel: string, payload: string) => {
    if (channel === 'youju:events:mail') payloads.push(payload);
  });
  await subscriber.subscribe('youju:events:mail');
  return { payloads, close: () => subscriber.quit().then(() => {}) };
}

describe.skipIf(redisMissing !== null)(`REDIS_URL with a real redis-server (${testEngine})`, () => {
  let redis: RedisServer;
  let first: TestServer;
  let second: TestServer;
  /** the test's own connection, to look at what the servers keep in Redis */
  let inspector: Redis;
  let counter = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
    const env = { REDIS_URL: redis.url, TRUSTED_PROXIES: '127.0.0.1' };
    first = await startTestServer({ env });
    second = await startTestServer({
      env: { ...env, ...(testEngine === 'postgres' ? { DATABASE_URL: first.config.databaseUrl ?? '' } : {}) },
    });
    inspector = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    inspector.on('error', () => {}); // Redis is killed on purpose below; it reconnects by itself
    await inspector.connect();
  });
  afterAll(async () => {
    inspector?.disconnect();
    await stopAll(second, first, redis);
  });

  async function deliver(server: TestServer, to: string): Promise<string> {
    const subject = `redis ${++counter} ${Date.now()}`;
    const result = await sendMail(server.smtpPort, {
      to: [to],
      content: simpleMessage(to, subject, 'hello'),
    });
    expect(result.data?.code).toBe(250);
    return subject;
  }

  /** Public sign-ups from one forwarded source address, split between both servers. */
  async function signUpDomains(): Promise<[number, number]> {
    const name = `signup${++counter}.test`;
    const onFirst = await addDomain(first, await first.adminToken(), name, { publicRegistration: true });
    if (testEngine === 'postgres') return [onFirst.id, onFirst.id];
    const onSecond = await addDomain(second, await second.adminToken(), name, { publicRegistration: true });
    return [onFirst.id, onSecond.id];
  }

  it('counts a limit atomically in Redis under youju: keys that hold no address in clear', async () => {
    const connection = connectRedis(redis.url, 'test', quietLog);
    try {
      await waitFor(() => connection.ready(), { what: 'the connection' });
      const limits = redisRateLimits(connection, memoryRateLimits(), quietLog);
      const limit = limits('test-burst', 60_000);
      const totals = await Promise.all(Array.from({ length: 50 }, () => limit.hit('198.51.100.7')));
      // One atomic script per hit: every total from 1 to 50 exactly once.
      expect([...totals].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
      expect(await limit.count('198.51.100.7')).toBe(50);
      await limit.release('198.51.100.7');
      expect(await limit.count('198.51.100.7')).toBe(49);
      expect(await limit.count('198.51.100.8')).toBe(0);

      const keys = await inspector.keys('youju:rate:test-burst:*');
      expect(keys).toEqual([redisRateKey('test-burst', '198.51.100.7')]);
      expect(keys[0]).not.toContain('198.51.100.7');
      // The counter expires by itself once its window has passed.
      const ttl = await inspector.pttl(keys[0] ?? '');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(66_000);

      await limit.reset('198.51.100.7');
      expect(await limit.count('198.51.100.7')).toBe(0);
      expect(await inspector.exists(keys[0] ?? '')).toBe(0);

      // A window that has passed counts nothing (the passing time is the test).
      const short = limits('test-short', 40);
      await short.hit('k');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await short.count('k')).toBe(0);
    } finally {
      await connection.close();
    }
  });

  it('admits exactly registerPerIpPerHour of 50 parallel sign-ups spread over both servers', async () => {
    const [onFirst, onSecond] = await signUpDomains();
    const source = '203.0.113.50';
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0
          ? first.api('POST', 'regEmail', {
              body: { domainId: onFirst },
              headers: { 'x-forwarded-for': source },
            })
          : second.api('POST', 'regEmail', {
              body: { domainId: onSecond },
              headers: { 'x-forwarded-for': source },
            }),
      ),
    );
    expect(answers.filter((answer) => answer.body.error === 0)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(40);
    expect(refused[0]?.body.msg).toMatch(/每小时最多注册或购买 10 个邮箱/);
    // The limit hit through the first server holds on the second, and the count is in Redis.
    const later = await second.api('POST', 'regEmail', {
      body: { domainId: onSecond },
      headers: { 'x-forwarded-for': source },
    });
    expect(later.status).toBe(429);
    expect(await inspector.exists(redisRateKey('sign-ups', source))).toBe(1);
  });

  it('publishes new mail on Redis after the commit', async () => {
    const world = await createUserWithDomain(first, 'redisevents');
    const box = await createAddress(first, world);
    const channel = await watchMailChannel(redis.url);
    try {
      await deliver(first, box.address);
      const [payload] = await waitFor(() => (channel.payloads.length > 0 ? channel.payloads : null), {
        what: 'a mail event on youju:events:mail',
      });
      const ids = JSON.parse(payload ?? '[]') as unknown[];
      expect(ids.length).toBe(1);
      expect(Number.isSafeInteger(ids[0])).toBe(true);
    } finally {
      await channel.close();
    }
  });

  describe.runIf(testEngine === 'postgres')('two servers on one PostgreSQL and one Redis', () => {
    let world: MailWorld;
    beforeAll(async () => {
      world = await createUserWithDomain(first, 'redispair');
    });

    it('brings mail stored by one server to a live inbox on the other', async () => {
      const box = await createAddress(first, world);
      const events = await openEvents(second.baseUrl, world.userToken);
      try {
        const subject = await deliver(first, box.address);
        expect(await events.waitFor(subject, 10_000)).toBe(true);
      } finally {
        events.close();
      }
    });

    it('locks an account after failed logins spread over both servers', async () => {
      const locked = await createUserWithDomain(first, 'redislock');
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        const server = attempt % 2 === 0 ? first : second;
        const answer = await server.api('POST', 'login', {
          body: { username: locked.username, password: 'wrong-password-1' },
        });
        statuses.push(answer.status);
      }
      // Five failures per account are allowed (the default), wherever they happened.
      expect(statuses.slice(0, 5).every((status) => status !== 429)).toBe(true);
      expect(statuses[5]).toBe(429);
      const refused = await first.api('POST', 'login', {
        body: { username: locked.username, password: 'user-password-1' },
      });
      expect(refused.status).toBe(429);
      expect(refused.body.msg).toMatch(/已临时锁定/);
    });
  });

  it('keeps serving while Redis is away (limits in the database), and events resume when it is back', async () => {
    const world = await createUserWithDomain(first, 'redisoutage');
    const box = await createAddress(first, world);
    // A stream on the other server when both share the database; on SQLite on the same one.
    const watcher = testEngine === 'postgres' ? second : first;
    const events = await openEvents(watcher.baseUrl, world.userToken);
    try {
      expect(await events.waitFor(await deliver(first, box.address), 10_000)).toBe(true);

      await redis.kill();
      // Mail is accepted and stored; HTTP answers; a sign-up limit still holds, counted in the
      // database meanwhile.
      const subject = await deliver(first, box.address);
      if (testEngine === 'sqlite') {
        // One process: its own stream still hears of its mail.
        expect(await events.waitFor(subject, 10_000)).toBe(true);
      }
      await first.api('POST', 'user/updateSetting', {
        token: await first.adminToken(),
        body: { system: { registerPerIpPerHour: 2 } },
      });
      const [domainId] = await signUpDomains();
      const statuses: number[] = [];
      for (let index = 0; index < 3; index++) {
        const answer = await first.api('POST', 'regEmail', {
          body: { domainId },
          headers: { 'x-forwarded-for': '203.0.113.60' },
        });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
      const counted = await first.app.database.db
        .selectFrom('rate_counters')
        .select('count')
        .where('name', '=', 'sign-ups')
        .execute();
      expect(counted.reduce((total, row) => total + row.count, 0)).toBeGreaterThanOrEqual(2);
      expect((await first.api('GET', 'user/getInbox', { token: world.userToken })).status).toBe(200);

      await redis.restart();
      // Both servers reconnect and subscribe again by themselves: a new message reaches the
      // stream through Redis again (retried while the reconnection backoff runs out).
      const channel = await watchMailChannel(redis.url);
      try {
        const arrived = await waitFor(
          async () => {
            const sent = await deliver(first, box.address);
            return (await events.waitFor(sent, 1_000)) && channel.payloads.length > 0;
          },
          { timeoutMs: 30_000, intervalMs: 200, what: 'a mail event through the restarted Redis' },
        );
        expect(arrived).toBe(true);
      } finally {
        await channel.close();
      }
      // Limits count in Redis again.
      await waitFor(
        async () => {
          await first.api('POST', 'regEmail', {
            body: { domainId },
            headers: { 'x-forwarded-for': '203.0.113.61' },
          });
          return (await inspector.exists(redisRateKey('sign-ups', '203.0.113.61'))) === 1;
        },
        { timeoutMs: 15_000, intervalMs: 200, what: 'a sign-up counted in Redis again' },
      );
    } finally {
      events.close();
      await first.api('POST', 'user/updateSetting', {
        token: await first.adminToken(),
        body: { system: { registerPerIpPerHour: 10 } },
      });
    }
  });

  it('answers while Redis hangs, counting in the database', async () => {
    const [domainId] = await signUpDomains();
    await first.api('POST', 'user/updateSetting', {
      token: await first.adminToken(),
      body: { system: { registerPerIpPerHour: 2 } },
    });
    redis.pause();
    try {
      // Connected but silent: the first count waits for the command timeout, then the database
      // counts (and the next ones go there straight away for a while).
      const statuses: number[] = [];
      for (let index = 0; index < 3; index++) {
        const answer = await first.api('POST', 'regEmail', {
          body: { domainId },
          headers: { 'x-forwarded-for': '203.0.113.70' },
        });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      redis.resume();
      await first.api('POST', 'user/updateSetting', {
        token: await first.adminToken(),
        body: { system: { registerPerIpPerHour: 10 } },
      });
    }
  });

  it('closes its Redis connections when it shuts down', async () => {
    const names = async () =>
      String(await inspector.call('CLIENT', 'LIST'))
        .split('\n')
        .filter((line) => /name=youju-/.test(line)).length;
    const before = await names();
    const third = await startTestServer({ env: { REDIS_URL: redis.url } });
    await waitFor(async () => (await names()) >= before + 2, { what: 'the third server connected' });
    await third.close();
    await waitFor(async () => (await names()) === before, { what: 'its connections closed' });
  });
});

/**
 * `rediss://`: the program (a child process, so that NODE_EXTRA_CA_CERTS can name the test's own
 * certificate authority) counts its limits in a Redis that speaks only TLS, and never in one whose
 * certificate it cannot verify.
 */
describe.skipIf(redisMissing !== null)(`REDIS_URL=rediss:// (${testEngine})`, () => {
  const store = useServerStore();
  let redis: RedisServer;
  let inspector: Redis;
  let certificateFile: string;
  beforeAll(async () => {
    const pair = makeCertificate(['localhost']);
    redis = await startRedisServer({ tls: pair });
    certificateFile = join(store().dataDir, 'redis-ca.pem');
    await writeFile(certificateFile, pair.cert);
    inspector = new Redis(redis.url, { lazyConnect: true, tls: { ca: pair.cert } });
    inspector.on('error', () => {});
    await inspector.connect();
  });
  afterAll(async () => {
    inspector?.disconnect();
    await stopAll(redis);
  });

  async function failedLogin(server: ServerProcess): Promise<void> {
    const answer = await server.api('POST', 'login', {
      body: { username: 'nobody-here', password: 'wrong-password-1' },
    });
    // Refused (wrong credentials, not a limit), and counted against the source address.
    expect(answer.body.error).not.toBe(0);
    expect(answer.status).not.toBe(429);
  }

  it('refuses a certificate it cannot verify, and goes on counting in the database', async () => {
    const server = await startServerProcess(store(), { REDIS_URL: redis.url });
    try {
      await waitFor(() => /redis \(commands\):/.test(server.output()), { what: 'the TLS failure logged' });
      await failedLogin(server);
      expect(await inspector.keys('youju:*')).toEqual([]);
      // The URL is never logged (it may carry a password).
      expect(server.output()).not.toContain(redis.url);
    } finally {
      await server.stop();
    }
  });

  it('counts in Redis over TLS with a trusted certificate', async () => {
    const server = await startServerProcess(store(), {
      REDIS_URL: redis.url,
      NODE_EXTRA_CA_CERTS: certificateFile,
    });
    try {
      await waitFor(
        async () => {
          await failedLogin(server);
          return (await inspector.keys('youju:rate:login-ip:*')).length > 0;
        },
        { timeoutMs: 15_000, intervalMs: 200, what: 'a failed login counted in Redis' },
      );
    } finally {
      await server.stop();
    }
  });
});
