import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';

const DAY = 24 * 60 * 60 * 1000;

// The Junk folder as the web client sees it: getInbox's folder, updateEmail's spam moving a
// message between Inbox and Junk, and retention purging Junk sooner (junkRetentionDays).
describe('Junk', () => {
  let server: TestServer;
  let world: MailWorld;
  let address: string;

  beforeAll(async () => {
    server = await startTestServer();
    world = await createUserWithDomain(server, 'junk');
    address = (await createAddress(server, world)).address;
  });
  afterAll(() => stopAll(server));

  async function deliver(subject: string): Promise<number> {
    const result = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, subject, 'x'),
    });
    expect(result.data?.code).toBe(250);
    const item = (await inbox(server, world.userToken, `&q=${encodeURIComponent(subject)}`)).list[0];
    if (!item) throw new Error(`no message "${subject}"`);
    return item.id;
  }

  const subjects = async (folder: 'inbox' | 'junk') =>
    (
      await inbox(server, world.userToken, `&address=${encodeURIComponent(address)}&folder=${folder}`)
    ).list.map((item) => item.subject);

  it('moves a message to Junk and back with updateEmail, and lists each folder apart', async () => {
    const id = await deliver('促销广告');
    await deliver('正常邮件');
    const marked = await server.api('POST', 'user/updateEmail', {
      token: world.userToken,
      body: { id, spam: true },
    });
    expectOk(marked.body);
    expect(marked.body.data.spam).toBe(true);
    expect(await subjects('inbox')).toEqual(['正常邮件']);
    expect(await subjects('junk')).toEqual(['促销广告']);

    const back = await server.api('POST', 'user/updateEmail', {
      token: world.userToken,
      body: { id, spam: false },
    });
    expectOk(back.body);
    expect((await subjects('inbox')).sort()).toEqual(['正常邮件', '促销广告'].sort());
    expect(await subjects('junk')).toEqual([]);
  });

  it('purges Junk after junkRetentionDays while the inbox keeps retentionDays', async () => {
    const junk = await deliver('十天前的垃圾邮件');
    const kept = await deliver('十天前的正常邮件');
    expectOk(
      (
        await server.api('POST', 'user/updateEmail', {
          token: world.userToken,
          body: { id: junk, spam: true },
        })
      ).body,
    );
    const db = server.app.database.db;
    await db
      .updateTable('messages')
      .set({ received_at: Date.now() - 10 * DAY })
      .where('id', 'in', [junk, kept])
      .execute();

    await server.app.services.mail.purge();
    expect(await subjects('junk')).not.toContain('十天前的垃圾邮件');
    expect(await subjects('inbox')).toContain('十天前的正常邮件');

    // 0: Junk is kept as long as the rest.
    const admin = await server.adminToken();
    expectOk(
      (
        await server.api('POST', 'user/updateSetting', {
          token: admin,
          body: { system: { junkRetentionDays: 0 } },
        })
      ).body,
    );
    const old = await deliver('保留的垃圾邮件');
    expectOk(
      (
        await server.api('POST', 'user/updateEmail', {
          token: world.userToken,
          body: { id: old, spam: true },
        })
      ).body,
    );
    await db
      .updateTable('messages')
      .set({ received_at: Date.now() - 10 * DAY })
      .where('id', '=', old)
      .execute();
    await server.app.services.mail.purge();
    expect(await subjects('junk')).toContain('保留的垃圾邮件');
  });
});
