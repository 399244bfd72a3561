import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMailAccount,
  defined,
  imapClient,
  type MailAccount,
} from '../mail-clients/mail-client-helpers.js';
import { expectOk, getRaw } from '../support/api.js';
import { createAddress } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { upload } from './sending-helpers.js';

/** Drafts kept on the server (saveDraft, draftList, getDraft, deleteDraft) in the Drafts folder. */
describe('drafts', () => {
  let server: TestServer;
  let imapPort: number;
  let alice: MailAccount;
  let bob: MailAccount;
  const clients: ImapFlow[] = [];

  beforeAll(async () => {
    server = await startTestServer({ mailClients: { imapLimits: { loginCheckMs: 0 } } });
    imapPort = server.imapPort as number;
    alice = await createMailAccount(server, 'alice');
    bob = await createMailAccount(server, 'bob');
  });
  afterAll(async () => {
    for (const client of clients) await client.logout().catch(() => {});
    await server.close();
  });

  async function imap(account: MailAccount): Promise<ImapFlow> {
    const client = await imapClient(imapPort, account);
    clients.push(client);
    return client;
  }

  async function save(token: string, body: Record<string, unknown>) {
    return server.api('POST', 'user/saveDraft', { token, body });
  }

  async function draftIds(token: string): Promise<number[]> {
    const { body } = await server.api('GET', 'user/draftList?pageSize=100', { token });
    expectOk(body);
    return body.data.list.map((item) => item.id);
  }

  it('saves, restores and replaces a draft, and mail clients see it in Drafts', async () => {
    const file = Buffer.from('附件内容 attachment body\n'.repeat(50));
    const uploaded = await upload(server, alice.token, file, '说明.txt', 'text/plain');
    expectOk(uploaded.body);

    const first = await save(alice.token, {
      from: alice.email,
      to: ['zhang@example.com'],
      bcc: ['hidden@example.com'],
      subject: '草稿主题',
      html: '<p>还没写完<script>alert(1)</script></p>',
      attachments: [uploaded.body.data.id],
      inReplyTo: '<thread-1@example.com>',
    });
    expectOk(first.body);
    const firstId = first.body.data.id;
    expect(Date.parse(first.body.data.savedAt)).toBeGreaterThan(0);

    const list = await server.api('GET', 'user/draftList', { token: alice.token });
    expectOk(list.body);
    expect(list.body.data.list).toEqual([
      expect.objectContaining({
        id: firstId,
        address: alice.email,
        to: ['zhang@example.com'],
        subject: '草稿主题',
        hasAttachments: true,
      }),
    ]);

    const detail = await server.api('GET', `user/getDraft?id=${firstId}`, { token: alice.token });
    expectOk(detail.body);
    expect(detail.body.data).toMatchObject({
      from: alice.email,
      to: ['zhang@example.com'],
      cc: [],
      bcc: ['hidden@example.com'],
      subject: '草稿主题',
      inReplyTo: '<thread-1@example.com>',
      attachments: [{ id: `${firstId}-0`, filename: '说明.txt', size: file.length }],
    });
    expect(detail.body.data.html).toContain('还没写完');
    expect(detail.body.data.html).not.toContain('<script');

    // Saved again with the kept attachment: one draft, a new id, the old one gone.
    const second = await save(alice.token, {
      id: firstId,
      from: alice.email,
      to: ['zhang@example.com'],
      bcc: ['hidden@example.com'],
      subject: '第二版',
      html: '<p>写完了</p>',
      attachments: [`${firstId}-0`],
    });
    expectOk(second.body);
    const secondId = second.body.data.id;
    expect(secondId).not.toBe(firstId);
    expect(await draftIds(alice.token)).toEqual([secondId]);
    const gone = await server.api('GET', `user/getDraft?id=${firstId}`, { token: alice.token });
    expect(gone.body.error).toBe(404);
    const kept = await getRaw(server, `user/attachment/${secondId}-0`, { token: alice.token });
    expect(kept.status).toBe(200);
    expect(kept.bytes.equals(file)).toBe(true);

    // Drafts are not mail: the inbox does not list them.
    const inbox = await server.api('GET', 'user/getInbox', { token: alice.token });
    expectOk(inbox.body);
    expect(inbox.body.data.list.map((item) => item.id)).not.toContain(secondId);

    // IMAP: the Drafts folder (\Drafts) holds it with \Draft, Bcc kept.
    const client = await imap(alice);
    const folders = await client.list();
    expect(folders.find((folder) => folder.specialUse === '\\Drafts')?.path).toBe('Drafts');
    await client.mailboxOpen('Drafts');
    const messages = [];
    for await (const message of client.fetch('1:*', { flags: true, envelope: true, source: true })) {
      messages.push(message);
    }
    expect(messages).toHaveLength(1);
    expect(messages[0]?.envelope?.subject).toBe('第二版');
    expect([...(messages[0]?.flags ?? [])]).toContain('\\Draft');
    expect(messages[0]?.source?.toString()).toMatch(/^Bcc: hidden@example\.com/m);

    // A draft a mail client APPENDs shows in the web's list.
    const appended = defined(
      await client.append(
        'Drafts',
        `From: ${alice.email}\r\nTo: li@example.com\r\nSubject: client draft\r\n\r\nfrom Thunderbird\r\n`,
        ['\\Draft'],
      ),
    );
    expect(appended.uid).toBeGreaterThan(0);
    const both = await server.api('GET', 'user/draftList', { token: alice.token });
    expectOk(both.body);
    const fromClient = both.body.data.list.find((item) => item.subject === 'client draft');
    expect(fromClient).toBeDefined();
    const clientDraft = await server.api('GET', `user/getDraft?id=${fromClient?.id}`, { token: alice.token });
    expectOk(clientDraft.body);
    expect(clientDraft.body.data).toMatchObject({ to: ['li@example.com'], html: null });
    expect(clientDraft.body.data.text).toContain('from Thunderbird');

    // deleteDraft: gone from the web and from IMAP.
    const deleted = await server.api('POST', 'user/deleteDraft', {
      token: alice.token,
      body: { id: secondId },
    });
    expect(deleted.body.error).toBe(0);
    const status = defined(await client.status('Drafts', { messages: true }));
    expect(status.messages).toBe(1);
  });

  it('sending a draft queues it with the draft attachments and removes the draft', async () => {
    const recipient = await createAddress(server, alice.world, 'drafts-inbox');
    const file = Buffer.from('%PDF-1.4 pretend pdf\n');
    const uploaded = await upload(server, alice.token, file, 'plan.pdf', 'application/pdf');
    expectOk(uploaded.body);
    const saved = await save(alice.token, {
      from: alice.email,
      to: [recipient.address],
      subject: '要发出的草稿',
      html: '<p>正文</p>',
      attachments: [uploaded.body.data.id],
    });
    expectOk(saved.body);
    const draftId = saved.body.data.id;
    const sent = await server.api('POST', 'user/sendEmail', {
      token: alice.token,
      body: {
        from: alice.email,
        to: [recipient.address],
        subject: '要发出的草稿',
        html: '<p>正文</p>',
        attachments: [`${draftId}-0`],
        draftId,
      },
    });
    expectOk(sent.body);
    expect(await draftIds(alice.token)).not.toContain(draftId);
    const sentDetail = await server.api('GET', `user/getSentDetail?id=${sent.body.data.id}`, {
      token: alice.token,
    });
    expectOk(sentDetail.body);
    expect(sentDetail.body.data.attachments).toEqual([
      expect.objectContaining({ filename: 'plan.pdf', size: file.length }),
    ]);
    const raw = await getRaw(server, `user/sentRaw/${sent.body.data.id}`, { token: alice.token });
    expect(raw.bytes.toString()).toContain(file.toString('base64').slice(0, 20));
  });

  it('only the mailbox and the account that owns it reach its drafts; others get 404', async () => {
    const uploaded = await upload(
      server,
      alice.token,
      Buffer.from('secret file'),
      'secret.txt',
      'text/plain',
    );
    expectOk(uploaded.body);
    const saved = await save(alice.token, {
      from: alice.email,
      subject: '私人草稿',
      text: '只给自己看',
      attachments: [uploaded.body.data.id],
    });
    expectOk(saved.body);
    const id = saved.body.data.id;
    const attachment = `${id}-0`;
    const adminToken = await server.adminToken();
    const sibling = await createMailAccount(server, 'sibling', alice.world);
    const strangers = [
      { who: 'another mailbox', token: bob.token, from: bob.email },
      { who: 'another mailbox of the same owner', token: sibling.token, from: sibling.email },
      { who: 'another user', token: bob.world.userToken, from: bob.email },
    ];
    for (const stranger of strangers) {
      const read = await server.api('GET', `user/getDraft?id=${id}`, { token: stranger.token });
      expect(read.body.error, stranger.who).toBe(404);
      const removed = await server.api('POST', 'user/deleteDraft', { token: stranger.token, body: { id } });
      expect(removed.body.error, stranger.who).toBe(404);
      const replaced = await save(stranger.token, { id, from: stranger.from, subject: 'overwrite' });
      expect(replaced.body.error, stranger.who).toBe(404);
      const stolen = await save(stranger.token, { from: stranger.from, attachments: [attachment] });
      expect(stolen.body.error, stranger.who).toBe(404);
      const sentWith = await server.api('POST', 'user/sendEmail', {
        token: stranger.token,
        body: { from: stranger.from, to: [stranger.from], subject: 'x', attachments: [attachment] },
      });
      expect(sentWith.body.error, stranger.who).toBe(404);
      expect(await draftIds(stranger.token), stranger.who).not.toContain(id);
    }
    // Writing into someone else's Drafts folder is refused as well.
    const intoAlice = await save(bob.token, { from: alice.email, subject: 'planted' });
    expect(intoAlice.body.error).toBe(403);
    const userIntoAlice = await save(bob.world.userToken, { from: alice.email, subject: 'planted' });
    expect(userIntoAlice.body.error).toBe(400);
    // An administrator does not browse other accounts' drafts.
    const byAdmin = await server.api('GET', `user/getDraft?id=${id}`, { token: adminToken });
    expect(byAdmin.body.error).toBe(404);
    expect(await draftIds(adminToken)).not.toContain(id);
    // A message of another folder is not a draft, even one's own.
    const client = await imap(alice);
    const inboxMessage = defined(
      await client.append(
        'INBOX',
        `From: x@example.com\r\nTo: ${alice.email}\r\nSubject: mail\r\n\r\nhi\r\n`,
      ),
    );
    expect(inboxMessage.uid).toBeGreaterThan(0);
    const inbox = await server.api('GET', 'user/getInbox', { token: alice.token });
    expectOk(inbox.body);
    const mailId = inbox.body.data.list[0]?.id as number;
    const notDraft = await server.api('GET', `user/getDraft?id=${mailId}`, { token: alice.token });
    expect(notDraft.body.error).toBe(404);
    const notDraftAttachment = await save(alice.token, { from: alice.email, attachments: [`${mailId}-0`] });
    expect(notDraftAttachment.body.error).toBe(404);

    // The owning account reaches the draft; it is still intact after all of the above.
    expect(await draftIds(alice.world.userToken)).toContain(id);
    const byOwner = await server.api('GET', `user/getDraft?id=${id}`, { token: alice.world.userToken });
    expectOk(byOwner.body);
    expect(byOwner.body.data).toMatchObject({ subject: '私人草稿', address: alice.email });
  });

  it('limits: saves per minute, drafts per mailbox, size, and bad input is a 400', async () => {
    const busy = await createMailAccount(server, 'busy', alice.world);
    let id: number | undefined;
    for (let attempt = 1; attempt <= 30; attempt++) {
      const saved = await save(busy.token, { ...(id ? { id } : {}), from: busy.email, text: `v${attempt}` });
      expectOk(saved.body);
      id = saved.body.data.id;
    }
    const throttled = await save(busy.token, { id, from: busy.email, text: 'v31' });
    expect(throttled.body.error).toBe(429);
    expect(throttled.body.msg).toContain('草稿保存过于频繁');
    expect(await draftIds(busy.token)).toEqual([id]);

    // The cap counts drafts however they came (here stored directly, as an IMAP APPEND would).
    const full = await createMailAccount(server, 'full', alice.world);
    const mailboxId = full.id;
    let lastId = 0;
    for (let index = 0; index < 100; index++) {
      const stored = await server.app.services.folders.append(
        mailboxId,
        'drafts',
        Buffer.from(`From: ${full.email}\r\nSubject: d${index}\r\n\r\nx\r\n`),
        { read: true, starred: false, flags: 4, keywords: '', receivedAt: Date.now() },
      );
      lastId = stored.id;
    }
    const tooMany = await save(full.token, { from: full.email, subject: 'one more' });
    expect(tooMany.body.error).toBe(409);
    expect(tooMany.body.msg).toContain('最多保存 100 封草稿');
    const replaced = await save(full.token, { id: lastId, from: full.email, subject: 'replaced in place' });
    expectOk(replaced.body);

    const small = await createMailAccount(server, 'small', alice.world);
    await server.app.services.settings.update({ maxMessageBytes: 64 * 1024 });
    try {
      const big = await upload(server, small.token, Buffer.alloc(60 * 1024, 1), 'big.bin');
      expectOk(big.body);
      const tooLarge = await save(small.token, { from: small.email, attachments: [big.body.data.id] });
      expect(tooLarge.body.error).toBe(413);
      expect(tooLarge.body.msg).toContain('草稿过大');
    } finally {
      await server.app.services.settings.update({ maxMessageBytes: 25 * 1024 * 1024 });
    }

    const badAddress = await save(small.token, { from: small.email, to: ['not an address'] });
    expect(badAddress.body.error).toBe(400);
    const badId = await server.api('GET', 'user/getDraft?id=abc', { token: small.token });
    expect(badId.body.error).toBe(400);
    const longRef = await save(small.token, { from: small.email, attachments: ['x'.repeat(200)] });
    expect(longRef.body.error).toBe(400);
    const unknownUpload = await save(small.token, { from: small.email, attachments: ['no-such-upload'] });
    expect(unknownUpload.body.error).toBe(404);
    const anonymous = await server.api('GET', 'user/draftList');
    expect(anonymous.body.error).toBe(302);
  });
});
