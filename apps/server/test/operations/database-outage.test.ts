/**
 * The database going away under a running server (PostgreSQL): a restart, a failover or
 * `pg_terminate_backend` ends every connection the server holds — the pools of the main thread and
 * of the store worker, and the dedicated LISTEN connection of the live inbox. The server must live
 * through it, answer temporary failures while the database refuses connections (SMTP 451, HTTP
 * 503), lose no message it acknowledged, and come back by itself.
 *
 * Only this server's own database is touched (its backends terminated, its connections refused):
 * other test files share the cluster.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { openEvents } from '../support/live-events.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer, testEngine } from '../support/test-server.js';

describe.runIf(testEngine === 'postgres')('the database going away (PostgreSQL)', () => {
  let server: TestServer;
  let alice: MailWorld;
  let admin: pg.Client;
  let databaseName: string;
  /** subjects of every message the server answered 250 for */
  const acknowledged: string[] = [];
  let counter = 0;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await createUserWithDomain(server, 'outage');
    databaseName = new URL(server.config.databaseUrl ?? '').pathname.slice(1);
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`alter database ${databaseName} with allow_connections true`).catch(() => undefined);
    await admin?.end();
    await server?.close();
  });

  /** Ends every connection to this server's database (not the admin's, which is elsewhere). */
  async function terminateBackends(): Promise<number> {
    const result = await admin.query<{ terminated: boolean }>(
      'select pg_terminate_backend(pid) as terminated from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [databaseName],
    );
    return result.rows.length;
  }

  async function backends(): Promise<Array<{ query: string; state: string | null }>> {
    const result = await admin.query<{ query: string; state: string | null }>(
      'select query, state from pg_stat_activity where datname = $1',
      [databaseName],
    );
    return result.rows;
  }

  /** One SMTP transaction; every reply it got, and whether the message was acknowledged (250). */
  async function deliver(to: string): Promise<{ subject: string; codes: number[]; accepted: boolean }> {
    const subject = `outage ${++counter}`;
    const result = await sendMail(server.smtpPort, {
      to: [to],
      content: simpleMessage(to, subject, 'hello'),
    });
    const codes = [
      result.greeting.code,
      result.mailFrom?.code,
      ...result.rcpt.map((reply) => reply.code),
      result.data?.code,
    ].filter((code): code is number => code !== undefined);
    const accepted = result.data?.code === 250;
    if (accepted) acknowledged.push(subject);
    return { subject, codes, accepted };
  }

  /** Delivers until one is acknowledged, as a sender retrying after 4xx would; nothing may be 5xx. */
  async function deliverUntilAccepted(to: string, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const attempt = await deliver(to);
      expect(
        attempt.codes.every((code) => code < 500),
        `${attempt.codes}`,
      ).toBe(true);
      if (attempt.accepted) return attempt.subject;
      if (Date.now() > deadline) throw new Error(`no delivery accepted within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('lives through the loss of every connection, idle and busy, and serves mail, HTTP and live events again', async () => {
    const box = await createAddress(server, alice);
    // The store worker's pool and the LISTEN connection are open (a first delivery, a stream).
    await deliverUntilAccepted(box.address, 5_000);
    const events = await openEvents(server.baseUrl, alice.userToken);
    try {
      const first = await deliverUntilAccepted(box.address, 5_000);
      expect(await events.waitFor(first, 2_000)).toBe(true);

      // One connection busy in a query as they go, the others idle (LISTEN is idle between events).
      const busy = sql`select pg_sleep(30)`.execute(server.app.database.db).then(
        () => null,
        (error: unknown) => error,
      );
      for (let tries = 0; !(await backends()).some((row) => row.query.includes('pg_sleep')); tries++) {
        expect(tries).toBeLessThan(100);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await backends()).some((row) => row.query.toUpperCase().startsWith('LISTEN'))).toBe(true);
      expect(await terminateBackends()).toBeGreaterThanOrEqual(3);
      expect(await busy).toBeInstanceOf(Error);

      // The pools open new connections; a retried delivery and HTTP calls succeed.
      const after = await deliverUntilAccepted(box.address, 10_000);
      const listed = await inbox(server, alice.userToken, `&address=${box.address}`);
      expect(listed.list.map((message) => message.subject)).toContain(after);

      // The LISTEN connection came back by itself: a new message reaches the open stream.
      const deadline = Date.now() + 15_000;
      let arrived = false;
      while (!arrived && Date.now() < deadline) {
        arrived = await events.waitFor(await deliverUntilAccepted(box.address, 5_000), 1_000);
      }
      expect(arrived).toBe(true);
      expect((await backends()).some((row) => row.query.toUpperCase().startsWith('LISTEN'))).toBe(true);
    } finally {
      events.close();
    }
  });

  it('answers 451 and 503 while the database refuses connections, loses nothing acknowledged and recovers', async () => {
    const box = await createAddress(server, alice);
    await deliverUntilAccepted(box.address, 5_000);
    const events = await openEvents(server.baseUrl, alice.userToken);
    try {
      await admin.query(`alter database ${databaseName} with allow_connections false`);
      await terminateBackends();
      // Some idle connections may not have heard of their end yet; within a moment every attempt
      // is refused, and always as a temporary failure.
      let refused = 0;
      for (let attempt = 0; attempt < 20 && refused < 3; attempt++) {
        const result = await deliver(box.address);
        expect(
          result.codes.every((code) => code < 500),
          `${result.codes}`,
        ).toBe(true);
        if (!result.accepted) {
          expect([421, 451]).toContain(result.codes.at(-1));
          refused++;
        }
      }
      expect(refused).toBe(3);

      const unavailable = await server.api('GET', 'user/getInbox?pageSize=100', { token: alice.userToken });
      expect(unavailable.status).toBe(503);
      expect(unavailable.body.error).toBe(503);
      expect(unavailable.body.msg).toMatch(/数据库/);
      expect(JSON.stringify(unavailable.body)).not.toMatch(/stack|Error:|at /);

      await admin.query(`alter database ${databaseName} with allow_connections true`);
      await deliverUntilAccepted(box.address, 10_000);

      // Every acknowledged message, before, during and after, is there.
      const listed = await inbox(server, alice.userToken);
      const subjects = new Set(listed.list.map((message) => message.subject));
      expect(acknowledged.filter((subject) => !subjects.has(subject))).toEqual([]);

      const deadline = Date.now() + 15_000;
      let arrived = false;
      while (!arrived && Date.now() < deadline) {
        arrived = await events.waitFor(await deliverUntilAccepted(box.address, 5_000), 1_000);
      }
      expect(arrived).toBe(true);
    } finally {
      await admin.query(`alter database ${databaseName} with allow_connections true`);
      events.close();
    }
  });
});
