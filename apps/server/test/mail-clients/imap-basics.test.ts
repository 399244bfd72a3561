import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRaw } from '../support/api.js';
import { inbox } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';
import {
  createMailAccount,
  defined,
  imapClient,
  type MailAccount,
  RawLineClient,
} from './mail-client-helpers.js';

let server: TestServer;
let imapPort: number;
let alice: MailAccount;
const clients: ImapFlow[] = [];

async function connect(account: MailAccount = alice): Promise<ImapFlow> {
  const client = await imapClient(imapPort, account);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  // Every command checks that the login still stands (a minute in production).
  server = await startTestServer({ mailClients: { imapLimits: { loginCheckMs: 0 } } });
  imapPort = server.imapPort as number;
  alice = await createMailAccount(server, 'alice');
});
afterAll(async () => {
  for (const client of clients) await client.logout().catch(() => client.close());
  await server.close();
});

describe('IMAP with imapflow', () => {
  it('lists the five folders with their special uses', async () => {
    const client = await connect();
    const folders = await client.list();
    const byPath = Object.fromEntries(folders.map((folder) => [folder.path, folder.specialUse ?? null]));
    expect(byPath).toEqual({
      INBOX: '\\Inbox',
      Sent: '\\Sent',
      Drafts: '\\Drafts',
      Junk: '\\Junk',
      Trash: '\\Trash',
    });
  });

  it('serves a message delivered by SMTP byte for byte, with its envelope and structure', async () => {
    const content = simpleMessage(alice.email, '=?UTF-8?B?5rWL6K+V6YKu5Lu2?=', '你好，IMAP！\r\nsecond line');
    expect((await sendMail(server.smtpPort, { to: [alice.email], content })).data?.code).toBe(250);
    const [item] = (await inbox(server, alice.token)).list;
    const raw = await getRaw(server, `user/raw/${item?.id}`, { token: alice.token });

    const client = await connect();
    const box = await client.mailboxOpen('INBOX');
    expect(box.exists).toBe(1);
    expect(box.uidValidity).toBeGreaterThan(0n);
    const message = await client.fetchOne('*', {
      source: true,
      envelope: true,
      bodyStructure: true,
      flags: true,
      uid: true,
      size: true,
    });
    expect(message).toBeTruthy();
    if (!message) return;
    expect(Buffer.compare(message.source as Buffer, raw.bytes)).toBe(0);
    expect(message.size).toBe(raw.bytes.length);
    expect(message.envelope?.subject).toBe('测试邮件');
    expect(message.envelope?.from?.[0]?.address).toBe('tester@sender.example');
    expect(message.bodyStructure?.type).toBe('text/plain');
    // imapflow reads with BODY.PEEK[]: still unread, on the web too.
    expect((await inbox(server, alice.token)).list[0]?.read).toBe(false);
  });

  it('shares flags with the web both ways', async () => {
    const client = await connect();
    await client.mailboxOpen('INBOX');
    const uid = defined(await client.fetchOne('*', { uid: true })).uid;
    await client.messageFlagsAdd(String(uid), ['\\Flagged'], { uid: true });
    await client.messageFlagsRemove(String(uid), ['\\Seen'], { uid: true });
    const item = (await inbox(server, alice.token)).list[0];
    expect(item).toMatchObject({ starred: true, read: false });

    await server.api('POST', 'user/updateEmail', {
      token: alice.token,
      body: { id: item?.id as number, starred: false },
    });
    await server.api('POST', 'user/setReadEmail', {
      token: alice.token,
      body: { ids: [item?.id as number], read: true },
    });
    await client.noop();
    const after = await client.fetchOne(String(uid), { flags: true }, { uid: true });
    expect([...(after ? (after.flags ?? []) : [])].sort()).toEqual(['\\Seen']);
  });
});

describe('IMAP live updates', () => {
  it('pushes EXISTS during IDLE within a second of an SMTP delivery, and EXPUNGE after a web delete', async () => {
    const client = await connect();
    await client.mailboxOpen('INBOX');
    const before = client.mailbox ? client.mailbox.exists : 0;
    const events: string[] = [];
    client.on('exists', (data: { count: number }) => events.push(`exists ${data.count}`));
    client.on('expunge', () => events.push('expunge'));
    const idling = client.idle();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const started = Date.now();
    const content = simpleMessage(alice.email, 'idle push', 'pushed');
    expect((await sendMail(server.smtpPort, { to: [alice.email], content })).data?.code).toBe(250);
    await waitFor(() => events.includes(`exists ${before + 1}`), { timeoutMs: 3_000 });
    expect(Date.now() - started).toBeLessThan(1_500);

    const item = (await inbox(server, alice.token)).list.find((entry) => entry.subject === 'idle push');
    const deleted = Date.now();
    await server.api('POST', 'user/delEmail', { token: alice.token, body: { ids: [item?.id as number] } });
    await waitFor(() => events.includes('expunge'), { timeoutMs: 3_000 });
    expect(Date.now() - deleted).toBeLessThan(1_500);
    await client.noop();
    await idling.catch(() => {});
  });
});

describe('IMAP folders', () => {
  it('appends to Sent and Drafts with APPENDUID, byte for byte, outside the web inbox', async () => {
    const client = await connect();
    const sent = Buffer.from('From: <me@x.test>\r\nTo: <you@y.test>\r\nSubject: 已发送\r\n\r\nsent copy\r\n');
    const result = defined(await client.append('Sent', sent, ['\\Seen']));
    expect(result.uid).toBeGreaterThan(0);
    const draft = defined(
      await client.append('Drafts', Buffer.from('Subject: draft\r\n\r\nwip\r\n'), ['\\Draft']),
    );
    expect(draft.uid).toBeGreaterThan(0);

    await client.mailboxOpen('Sent');
    const message = await client.fetchOne(String(result.uid), { source: true, flags: true }, { uid: true });
    expect(Buffer.compare(message ? (message.source as Buffer) : Buffer.alloc(0), sent)).toBe(0);
    expect([...(message ? (message.flags ?? []) : [])]).toEqual(['\\Seen']);
    const unread = (await server.api('GET', 'user/getUnreadEmail', { token: alice.token })).body;
    const unreadBefore = unread.error === 0 ? unread.data.total : -1;
    await client.append('Drafts', Buffer.from('Subject: unread draft\r\n\r\nwip\r\n'));
    const after = (await server.api('GET', 'user/getUnreadEmail', { token: alice.token })).body;
    // Drafts and Sent are not unread mail for the web's badge.
    expect(after.error === 0 ? after.data.total : -2).toBe(unreadBefore);
    const subjects = (await inbox(server, alice.token)).list.map((entry) => entry.subject);
    expect(subjects).not.toContain('已发送');
    expect(subjects).not.toContain('draft');
  });

  it('moves to Trash with COPYUID and expunges there; the web loses the message', async () => {
    const content = simpleMessage(alice.email, 'to be trashed', 'bye');
    await sendMail(server.smtpPort, { to: [alice.email], content });
    const client = await connect();
    await client.mailboxOpen('INBOX');
    const found = await client.search({ subject: 'to be trashed' }, { uid: true });
    expect(found).toHaveLength(1);
    const moved = defined(await client.messageMove(String((found as number[])[0]), 'Trash', { uid: true }));
    expect(moved.uidMap?.size).toBe(1);
    expect((await inbox(server, alice.token)).list.map((entry) => entry.subject)).not.toContain(
      'to be trashed',
    );

    await client.mailboxOpen('Trash');
    const trashed = await client.search({ subject: 'to be trashed' }, { uid: true });
    expect(trashed).toHaveLength(1);
    await client.messageDelete(String((trashed as number[])[0]), { uid: true });
    expect(await client.search({ all: true }, { uid: true })).not.toContain((trashed as number[])[0]);
  });

  it('searches Chinese text in subject and body with CHARSET UTF-8', async () => {
    const content = simpleMessage(alice.email, '会议纪要', '明天下午三点开会，请准时参加。');
    await sendMail(server.smtpPort, { to: [alice.email], content });
    const client = await connect();
    await client.mailboxOpen('INBOX');
    expect(await client.search({ subject: '纪要' })).toHaveLength(1);
    expect(await client.search({ body: '准时参加' })).toHaveLength(1);
    expect(await client.search({ text: '三点' })).toHaveLength(1);
    expect(await client.search({ body: '不存在的词' })).toHaveLength(0);
  });
});

describe('IMAP and the web’s Junk', () => {
  it('moves a message to Junk when the web marks it spam, and back; IMAP MOVE to Junk marks it spam', async () => {
    const content = simpleMessage(alice.email, 'junk candidate', 'buy now');
    await sendMail(server.smtpPort, { to: [alice.email], content });
    const item = (await inbox(server, alice.token)).list.find((entry) => entry.subject === 'junk candidate');
    await server.api('POST', 'user/updateEmail', {
      token: alice.token,
      body: { id: item?.id as number, spam: true },
    });
    const client = await connect();
    await client.mailboxOpen('Junk');
    expect(await client.search({ subject: 'junk candidate' })).toHaveLength(1);
    await client.mailboxOpen('INBOX');
    expect(await client.search({ subject: 'junk candidate' })).toHaveLength(0);
    const junk = (await inbox(server, alice.token, '&folder=junk')).list.map((entry) => entry.subject);
    expect(junk).toContain('junk candidate');

    await server.api('POST', 'user/updateEmail', {
      token: alice.token,
      body: { id: item?.id as number, spam: false },
    });
    // New in the selected folder: the client learns of it at its next command (NOOP).
    await client.noop();
    const found = (await client.search({ subject: 'junk candidate' }, { uid: true })) as number[];
    expect(found).toHaveLength(1);
    await client.messageMove(String(found[0]), 'Junk', { uid: true });
    const flagged = (await inbox(server, alice.token, '&folder=junk')).list.find(
      (entry) => entry.subject === 'junk candidate',
    );
    expect(flagged?.spam).toBe(true);
  });
});

describe('IMAP isolation and limits', () => {
  it('ends an open session when the mailbox gets a new password', async () => {
    const carol = await createMailAccount(server, 'carol');
    const raw = await RawLineClient.connect(imapPort);
    await raw.until(/\* OK/);
    expect(await raw.command('a', `LOGIN ${carol.email} ${carol.password}`)).toMatch(/^a OK/m);
    const changed = await server.api('POST', 'user/editEmailAccount', {
      token: carol.world.userToken,
      body: { id: carol.id, password: 'a-new-Password-9' },
    });
    expect(changed.body.error).toBe(0);
    raw.send('b NOOP\r\n');
    expect(await raw.until(/\* BYE/)).not.toMatch(/^b OK/m);
    expect(await raw.waitClosed()).toBe(true);
  });

  it('gives a second mailbox none of the first one’s mail, whatever UIDs it names', async () => {
    const bob = await createMailAccount(server, 'bob');
    const client = await connect(bob);
    const box = await client.mailboxOpen('INBOX');
    expect(box.exists).toBe(0);
    const raw = await RawLineClient.connect(imapPort);
    await raw.until(/\* OK/);
    await raw.command('a', `LOGIN ${bob.email} ${bob.password}`);
    await raw.command('b', 'SELECT INBOX');
    const fetched = await raw.command('c', 'UID FETCH 1:* (UID BODY.PEEK[])');
    expect(fetched).not.toMatch(/FETCH \(/);
    expect(await raw.command('d', 'FETCH 1:* (BODY[])')).not.toMatch(/FETCH \(/);
    expect(await raw.command('e', 'UID STORE 1:100000 +FLAGS (\\Deleted)')).toMatch(/^e OK/m);
    expect(await raw.command('f', 'UID COPY 1:100000 Trash')).toMatch(/^f OK/m);
    raw.close();
    // Alice's mail is untouched.
    expect((await inbox(server, alice.token)).list.every((entry) => entry.subject !== '')).toBe(true);
    const mine = await connect();
    const status = defined(await mine.status('Trash', { messages: true }));
    expect(status.messages).toBe(0);
  });

  it('answers garbage with BAD and closes after three failed logins', async () => {
    const raw = await RawLineClient.connect(imapPort);
    await raw.until(/\* OK/);
    expect(await raw.command('a', 'FETCH')).toMatch(/^a BAD/m);
    raw.send('\x00\xff\r\n');
    await raw.until(/BAD/);
    expect(await raw.command('b', 'SELECT INBOX')).toMatch(/^b BAD/m);
    for (const tag of ['c', 'd']) {
      expect(await raw.command(tag, `LOGIN ${alice.email} wrong-password`)).toMatch(
        new RegExp(`^${tag} NO \\[AUTHENTICATIONFAILED\\]`, 'm'),
      );
    }
    raw.send(`e LOGIN ${alice.email} wrong-password\r\n`);
    await raw.until(/\* BYE/);
    expect(await raw.waitClosed()).toBe(true);
    // The web login still works for the owner from elsewhere, and IMAP with the right password.
    const client = await connect();
    expect(client.usable).toBe(true);
  });
});
