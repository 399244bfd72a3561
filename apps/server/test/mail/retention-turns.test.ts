import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';

const DAY = 24 * 60 * 60 * 1000;

// The retention purge runs on the store worker (store/message-store.ts); user deletions and the
// in-process purge run on the main thread. On SQLite every query is synchronous and settles in a microtask: a purge that went from batch
// to batch without giving the event loop a turn held HTTP and SMTP until it was done (30 s for
// 75,000 messages in bench/inbox-heavy.mjs). It must let the loop run between its batches.
describe('retention purge and the event loop', () => {
  let server: TestServer;
  let world: MailWorld;
  let address: string;

  beforeAll(async () => {
    server = await startTestServer();
    world = await createUserWithDomain(server, 'turns');
    address = (await createAddress(server, world)).address;
  });
  afterAll(() => stopAll(server));

  it('gives the event loop turns while it deletes, and deletes what is past retention', async () => {
    for (const subject of ['旧邮件一', '旧邮件二', '新邮件']) {
      const result = await sendMail(server.smtpPort, {
        to: [address],
        content: simpleMessage(address, subject, 'x'),
      });
      expect(result.data?.code).toBe(250);
    }
    const list = (await inbox(server, world.userToken, `&address=${encodeURIComponent(address)}`)).list;
    const old = list.filter((item) => item.subject.startsWith('旧')).map((item) => item.id);
    expect(old).toHaveLength(2);
    await server.app.database.db
      .updateTable('messages')
      .set({ received_at: Date.now() - 400 * DAY })
      .where('id', 'in', old)
      .execute();

    // Counts the loop's turns (check phases) while the purge runs.
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const purged = server.app.services.mail.purge();
    const result = await purged;
    running = false;
    expect(result.messages).toBe(2);
    expect(turns).toBeGreaterThan(0);
    const left = (await inbox(server, world.userToken, `&address=${encodeURIComponent(address)}`)).list;
    expect(left.map((item) => item.subject)).toEqual(['新邮件']);
  });

  it('runs the scheduled purge on the store worker, off the thread that serves HTTP and SMTP', async () => {
    const result = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, '更旧的邮件', 'x'),
    });
    expect(result.data?.code).toBe(250);
    const list = (await inbox(server, world.userToken, `&address=${encodeURIComponent(address)}`)).list;
    const old = list.find((item) => item.subject === '更旧的邮件');
    expect(old).toBeDefined();
    await server.app.database.db
      .updateTable('messages')
      .set({ received_at: Date.now() - 400 * DAY })
      .where('id', '=', old?.id ?? 0)
      .execute();

    expect(await server.app.messageStore.purge()).toEqual({ messages: 1, mailboxes: 0 });
    const left = (await inbox(server, world.userToken, `&address=${encodeURIComponent(address)}`)).list;
    expect(left.map((item) => item.subject)).toEqual(['新邮件']);
  });
});
