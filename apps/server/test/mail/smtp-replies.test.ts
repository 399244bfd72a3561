import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { SmtpClient, sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer, testEngine } from '../support/test-server.js';

let server: TestServer;
let world: MailWorld;

beforeAll(async () => {
  server = await startTestServer();
  world = await createUserWithDomain(server, 'smtp');
});
afterAll(async () => server.close());

async function count(address: string): Promise<number> {
  return (await inbox(server, world.userToken, `&address=${encodeURIComponent(address)}`)).total;
}

describe('SMTP replies', () => {
  it('greets, offers STARTTLS (self-signed until a certificate is installed) and takes mail for a known address', async () => {
    const client = await SmtpClient.connect(server.smtpPort);
    expect((await client.read()).code).toBe(220);
    const ehlo = await client.command('EHLO client.test');
    expect(ehlo.code).toBe(250);
    expect(ehlo.text).toContain('STARTTLS');
    expect(ehlo.text).toMatch(/SIZE \d+/);
    await client.quit();
    const { address } = await createAddress(server, world);
    const result = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, 'hi', 'hello'),
    });
    expect(result.data?.code).toBe(250);
    expect(await count(address)).toBe(1);
  });

  it('answers 550 5.1.1 for unknown, disabled and expired recipients and foreign domains', async () => {
    const disabled = await createAddress(server, world);
    const expired = await createAddress(server, world);
    await server.app.database.db
      .updateTable('mailboxes')
      .set({ enabled: 0 })
      .where('id', '=', disabled.id)
      .execute();
    await server.app.database.db
      .updateTable('mailboxes')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', expired.id)
      .execute();
    for (const to of [
      `nobody@${world.domain}`,
      'someone@not-ours.example',
      disabled.address,
      expired.address,
    ]) {
      const result = await sendMail(server.smtpPort, { to: [to], content: simpleMessage(to, 'x', 'y') });
      expect(result.rcpt[0]?.code, to).toBe(550);
      expect(result.rcpt[0]?.text).toMatch(/^5\.1\.1 /);
    }
  });

  it('answers 552 5.3.4 above the size limit, at MAIL FROM and after DATA, and stores nothing', async () => {
    const { address } = await createAddress(server, world);
    await server.app.services.settings.update({ maxMessageBytes: 4096 });
    try {
      const declared = await sendMail(server.smtpPort, {
        to: [address],
        content: Buffer.from('x'),
        size: 10_000,
      });
      expect(declared.mailFrom?.code).toBe(552);
      expect(declared.mailFrom?.text).toMatch(/^5\.3\.4 /);
      const big = simpleMessage(address, 'big', 'z'.repeat(900).concat('\r\n').repeat(10));
      const result = await sendMail(server.smtpPort, { to: [address], content: big });
      expect(result.data?.code).toBe(552);
      expect(result.data?.text).toMatch(/^5\.3\.4 /);
      expect(await count(address)).toBe(0);
    } finally {
      await server.app.services.settings.update({ maxMessageBytes: 25 * 1024 * 1024 });
    }
  });

  it('refuses a blacklisted address at connect with 554', async () => {
    const db = server.app.database.db;
    await db
      .insertInto('ip_blacklist')
      .values({ ip: '127.0.0.0/8', reason: 'test', created_at: Date.now(), expires_at: null })
      .execute();
    server.app.services.firewall.invalidate();
    try {
      const client = await SmtpClient.connect(server.smtpPort);
      const greeting = await client.read();
      expect(greeting.code).toBe(554);
      expect(greeting.text).toMatch(/5\.7\.1/);
      await client.quit();
    } finally {
      await db.deleteFrom('ip_blacklist').where('ip', '=', '127.0.0.0/8').execute();
      server.app.services.firewall.invalidate();
    }
    const client = await SmtpClient.connect(server.smtpPort);
    expect((await client.read()).code).toBe(220);
    await client.quit();
  });

  it('refuses bare LF and bare CR in DATA (SMTP smuggling) with 554 5.6.0', async () => {
    const { address } = await createAddress(server, world);
    const smuggled = Buffer.from(
      `From: a@sender.example\r\nTo: <${address}>\r\nSubject: smuggle\r\n\r\nhello\n.\nMAIL FROM:<evil@x>\r\n`,
    );
    const result = await sendMail(server.smtpPort, { to: [address], content: smuggled });
    expect(result.data?.code).toBe(554);
    expect(result.data?.text).toMatch(/^5\.6\.0 /);
    const bareCr = Buffer.from(`Subject: cr\r\n\r\nline\rmore\r\n`);
    expect((await sendMail(server.smtpPort, { to: [address], content: bareCr })).data?.code).toBe(554);
    expect(await count(address)).toBe(0);
  });

  it('applies content filters: reject 550 5.7.1, discard 250 dropped, spam stored flagged', async () => {
    const { address } = await createAddress(server, world);
    const add = (body: object) => server.api('POST', 'user/addFilter', { token: world.userToken, body });
    const reject = await add({ field: 'subject', match: 'contains', value: '拒收', action: 'reject' });
    const discard = await add({
      field: 'from',
      match: 'equals',
      value: 'Dropper <drop@sender.example>',
      action: 'discard',
    });
    const spam = await add({ field: 'body', match: 'regex', value: '免费.*领取', action: 'spam' });
    const slow = await add({ field: 'subject', match: 'regex', value: '^(a+)+$', action: 'reject' });
    expect([reject, discard, spam, slow].map((r) => r.body.error)).toEqual([0, 0, 0, 0]);
    try {
      const rejected = await sendMail(server.smtpPort, {
        to: [address],
        content: simpleMessage(address, '=?UTF-8?B?5ouS5pS25rWL6K+V?=', 'x'),
      });
      expect(rejected.data?.code).toBe(550);
      expect(rejected.data?.text).toMatch(/^5\.7\.1 /);

      const dropped = await sendMail(server.smtpPort, {
        to: [address],
        content: Buffer.from(
          `From: Dropper <drop@sender.example>\r\nTo: <${address}>\r\nSubject: drop\r\n\r\nbye\r\n`,
        ),
      });
      expect(dropped.data?.code).toBe(250);
      expect(await count(address)).toBe(0);

      const flagged = await sendMail(server.smtpPort, {
        to: [address],
        content: simpleMessage(address, 'offer', '点击免费手机领取'),
      });
      expect(flagged.data?.code).toBe(250);
      // Marked spam: in Junk (getInbox folder=junk), not in the inbox.
      const list = await inbox(server, world.userToken, `&address=${address}&folder=junk`);
      expect(list.list[0]?.spam).toBe(true);

      // A pathological pattern on a crafted subject neither hangs the server nor matches.
      const started = Date.now();
      const pathological = await sendMail(server.smtpPort, {
        to: [address],
        content: simpleMessage(address, `${'a'.repeat(900)}!`, 'x'),
      });
      expect(pathological.data?.code, JSON.stringify(pathological.data)).toBe(250);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const created of [reject, discard, spam, slow]) {
        await server.api('POST', 'user/delFilter', {
          token: world.userToken,
          body: { id: created.body.data?.id },
        });
      }
    }
  });

  it('answers 4xx when the store fails, stores nothing, and recovers', async () => {
    const { address } = await createAddress(server, world);
    const db = server.app.database.db;
    if (testEngine === 'postgres') {
      await sql`create function youju_fail_raw() returns trigger as $$ begin raise exception 'simulated store failure'; end $$ language plpgsql`.execute(
        db,
      );
      await sql`create trigger youju_fail_raw before insert on message_raw_chunks for each row execute function youju_fail_raw()`.execute(
        db,
      );
    } else {
      await sql`create trigger youju_fail_raw before insert on message_raw_chunks begin select raise(abort, 'simulated store failure'); end`.execute(
        db,
      );
    }
    try {
      const result = await sendMail(server.smtpPort, {
        to: [address],
        content: simpleMessage(address, 'fail', 'x'),
      });
      expect(result.data?.code).toBe(451);
      expect(result.data?.text).toMatch(/^4\.3\.0 /);
      expect(await count(address)).toBe(0);
      const { used_bytes } = await db
        .selectFrom('mailboxes')
        .select('used_bytes')
        .where('address', '=', address)
        .executeTakeFirstOrThrow();
      expect(Number(used_bytes)).toBe(0);
    } finally {
      if (testEngine === 'postgres') {
        await sql`drop trigger youju_fail_raw on message_raw_chunks`.execute(db);
        await sql`drop function youju_fail_raw()`.execute(db);
      } else {
        await sql`drop trigger youju_fail_raw`.execute(db);
      }
    }
    const again = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, 'ok', 'x'),
    });
    expect(again.data?.code).toBe(250);
  });

  it.runIf(testEngine === 'postgres')('answers 452 4.3.1 when the database reports a full disk', async () => {
    const { address } = await createAddress(server, world);
    const db = server.app.database.db;
    await sql`create function youju_disk_full() returns trigger as $$ begin raise exception 'disk full' using errcode = '53100'; end $$ language plpgsql`.execute(
      db,
    );
    await sql`create trigger youju_disk_full before insert on message_raw_chunks for each row execute function youju_disk_full()`.execute(
      db,
    );
    try {
      const result = await sendMail(server.smtpPort, {
        to: [address],
        content: simpleMessage(address, 'full', 'x'),
      });
      expect(result.data?.code).toBe(452);
      expect(result.data?.text).toMatch(/^4\.3\.1 /);
    } finally {
      await sql`drop trigger youju_disk_full on message_raw_chunks`.execute(db);
      await sql`drop function youju_disk_full()`.execute(db);
    }
  });

  it('enforces the mailbox quota with 452 4.2.2', async () => {
    const { id, address } = await createAddress(server, world);
    const db = server.app.database.db;
    // 1200 bytes: the first message and the Authentication-Results header stored with it fit.
    await db.updateTable('mailboxes').set({ quota_bytes: 1200 }).where('id', '=', id).execute();
    const first = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, 'one', 'x'.repeat(100)),
    });
    expect(first.data?.code).toBe(250);
    const second = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, 'two', 'x'.repeat(600)),
    });
    expect(second.data?.code).toBe(452);
    expect(second.data?.text).toMatch(/^4\.2\.2 /);
    await db.updateTable('mailboxes').set({ quota_bytes: 100 }).where('id', '=', id).execute();
    const full = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, 'three', 'x'),
    });
    expect(full.rcpt[0]?.code).toBe(452);
    expect(await count(address)).toBe(1);
  });

  it('delivers one DATA to several mailboxes sharing one raw copy', async () => {
    const a = await createAddress(server, world);
    const b = await createAddress(server, world);
    const result = await sendMail(server.smtpPort, {
      to: [a.address, b.address, `ghost@${world.domain}`],
      content: simpleMessage(a.address, 'both', 'shared'),
    });
    expect(result.rcpt.map((r) => r.code)).toEqual([250, 250, 550]);
    expect(result.data?.code).toBe(250);
    expect(await count(a.address)).toBe(1);
    expect(await count(b.address)).toBe(1);
  });
});
