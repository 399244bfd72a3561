import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRaw } from '../support/api.js';
import { inbox } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';
import { createMailAccount, imapClient, type MailAccount } from './mail-client-helpers.js';

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
  server = await startTestServer({ mailClients: {} });
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
    const message = await client.fetchOne('*', { source: true, envelope: true, bodyStructure: true, flags: true, uid: true, size: true });
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
    const uid = (await client.fetchOne('*', { uid: true }))?.uid as number;
    await client.messageFlagsAdd(String(uid), ['\\Flagged'], { uid: true });
    await client.messageFlagsRemove(String(uid), ['\\Seen'], { uid: true });
    const item = (await inbox(server, alice.token)).list[0];
    expect(item).toMatchObject({ starred: true, read: false });

    await server.api('POST', 'user/updateEmail', { token: alice.token, body: { id: item?.id as number, starred: false } });
    await server.api('POST', 'user/setReadEmail', { token: alice.token, body: { ids: [item?.id as number], read: true } });
    await client.noop();
    const after = await client.fetchOne(String(uid), { flags: true }, { uid: true });
    expect([...(after ? after.flags ?? [] : [])].sort()).toEqual(['\\Seen']);
  });
});
