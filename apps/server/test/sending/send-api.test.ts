import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { dkimVerify } from 'mailauth';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { createAddress } from '../support/fixtures.js';
import { sendMail } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { rawOf, type SenderWorld, senderWorld, sentItem, settled, upload } from './sending-helpers.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452', 'hex'),
  Buffer.alloc(64, 7),
]);

describe('sendEmail, uploadFile and the sent folder', () => {
  let server: TestServer;
  let alice: SenderWorld;
  let bob: SenderWorld;
  let aliceInbox: { id: number; address: string };

  beforeAll(async () => {
    server = await startTestServer({ env: { QUEUE_POLL_MS: '200' } });
    alice = await senderWorld(server, 'alice');
    bob = await senderWorld(server, 'bob');
    aliceInbox = await createAddress(server, alice, 'inbox');
  });
  afterAll(async () => server.close());

  it('delivers to a local mailbox internally, DKIM-signed, with a generated plain-text part', async () => {
    const sent = await server.api('POST', 'user/sendEmail', {
      token: alice.mailboxToken,
      body: {
        from: alice.mailboxAddress,
        to: [aliceInbox.address],
        subject: '你好，世界 — 本地投递',
        html: '<p>第一段<b>加粗</b></p><p>第二段 <a href="https://example.com/">链接</a></p>',
      },
    });
    expect(sent.status).toBe(200);
    expectOk(sent.body);
    expect(sent.body.data).toMatchObject({ status: 'queued' });
    const item = await settled(server, alice.mailboxToken, sent.body.data.id);
    expect(item.status).toBe('delivered');
    expect(item.deliveries).toEqual([
      expect.objectContaining({
        rcpt: aliceInbox.address,
        status: 'delivered',
        attempts: 1,
        lastError: null,
      }),
    ]);

    const list = await server.api('GET', `user/getInbox?address=${aliceInbox.address}`, {
      token: alice.userToken,
    });
    expectOk(list.body);
    const [delivered] = list.body.data.list;
    expect(delivered).toMatchObject({ subject: '你好，世界 — 本地投递' });
    const raw = await rawOf(server, alice.userToken, `raw/${delivered?.id}`);
    const headerEnd = raw.indexOf('\r\n\r\n');
    const header = raw.subarray(0, headerEnd).toString();
    expect(header).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed;/m);
    expect(header).toContain(`d=${alice.domain}`);
    expect(header).toMatch(
      new RegExp(`^Message-ID: <[0-9a-f-]+@${alice.domain.replace(/\./g, '\\.')}>`, 'm'),
    );
    // The subject travels as RFC 2047 encoded words, never as raw UTF-8.
    expect(header).toMatch(/^Subject: =\?UTF-8\?[QB]\?/m);
    expect(raw.every((byte) => byte < 0x80)).toBe(true);
    const parsed = await simpleParser(raw);
    expect(parsed.text?.trim()).toBe('第一段加粗\n\n第二段 链接 (https://example.com/)');
    expect(parsed.html).toContain('<b>加粗</b>');

    // The sent copy is byte for byte what the recipient got.
    const sentRaw = await rawOf(server, alice.mailboxToken, `sentRaw/${sent.body.data.id}`);
    expect(sentRaw.equals(raw)).toBe(true);
  });

  it('puts the display name chosen in personal settings into From', async () => {
    const named = await server.api('POST', 'user/updateSetting', {
      token: alice.mailboxToken,
      body: { personal: { displayName: '爱丽丝 Alice' } },
    });
    expectOk(named.body);
    const sent = await server.api('POST', 'user/sendEmail', {
      token: alice.mailboxToken,
      body: { from: alice.mailboxAddress, to: [aliceInbox.address], subject: '署名', text: '有名字的发件人' },
    });
    expectOk(sent.body);
    expect((await settled(server, alice.mailboxToken, sent.body.data.id)).status).toBe('delivered');
    const parsed = await simpleParser(
      await rawOf(server, alice.mailboxToken, `sentRaw/${sent.body.data.id}`),
    );
    expect(parsed.from?.value).toEqual([{ name: '爱丽丝 Alice', address: alice.mailboxAddress }]);
    await server.api('POST', 'user/updateSetting', {
      token: alice.mailboxToken,
      body: { personal: { displayName: '' } },
    });
  });

  it('keeps Bcc recipients out of the header and still delivers to them', async () => {
    const hidden = await createAddress(server, alice, 'hidden');
    const sent = await server.api('POST', 'user/sendEmail', {
      token: alice.userToken,
      body: {
        from: `boss@${alice.domain}`,
        to: [aliceInbox.address],
        bcc: [hidden.address],
        subject: 'bcc',
        text: '正文',
      },
    });
    expectOk(sent.body);
    const item = await settled(server, alice.userToken, sent.body.data.id);
    expect(item.deliveries.map((d) => d.rcpt).sort()).toEqual([aliceInbox.address, hidden.address].sort());
    expect(item.status).toBe('delivered');
    const raw = await rawOf(server, alice.userToken, `sentRaw/${sent.body.data.id}`);
    expect(raw.toString()).not.toMatch(/^Bcc:/im);
    expect(raw.toString()).not.toContain(hidden.address);
  });

  it('refuses a sender address the caller does not own (403)', async () => {
    const cases: [string, string][] = [
      [alice.mailboxToken, `someone-else@${alice.domain}`],
      [alice.mailboxToken, bob.mailboxAddress],
      [alice.userToken, `me@${bob.domain}`],
      [alice.userToken, 'me@nowhere.example'],
    ];
    for (const [token, from] of cases) {
      const { status, body } = await server.api('POST', 'user/sendEmail', {
        token,
        body: { from, to: [aliceInbox.address], subject: 'x', text: 'y' },
      });
      expect(status, from).toBe(403);
      expect(body.msg).toContain('不能以');
    }
    // an administrator may use any domain of the service
    const admin = await server.adminToken();
    const ok = await server.api('POST', 'user/sendEmail', {
      token: admin,
      body: { from: `postmaster@${bob.domain}`, to: [aliceInbox.address], subject: '管理员', text: 'y' },
    });
    expect(ok.status).toBe(200);
  });

  it('answers 400 in Chinese for bad input', async () => {
    const { status, body } = await server.api('POST', 'user/sendEmail', {
      token: alice.userToken,
      body: { from: `a@${alice.domain}`, to: ['not-an-address'], subject: 'x' },
    });
    expect(status).toBe(400);
    expect(body.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('sniffs uploads, sends them as attachments and keeps them to their owner', async () => {
    const png = await upload(server, alice.mailboxToken, PNG, 'C:\\Users\\张三\\图片.txt', 'text/plain');
    expect(png.status).toBe(200);
    expectOk(png.body);
    expect(png.body.data).toMatchObject({ filename: '图片.txt', size: PNG.length, contentType: 'image/png' });
    const text = await upload(server, alice.mailboxToken, Buffer.from('纯文本'), '说明.txt', 'text/plain');
    expectOk(text.body);
    expect(text.body.data.contentType).toBe('text/plain');

    // Bob cannot attach Alice's upload: it answers like a missing one.
    const stolen = await server.api('POST', 'user/sendEmail', {
      token: bob.mailboxToken,
      body: {
        from: bob.mailboxAddress,
        to: [aliceInbox.address],
        subject: 'x',
        attachments: [png.body.data.id],
      },
    });
    expect(stolen.status).toBe(404);

    const sent = await server.api('POST', 'user/sendEmail', {
      token: alice.mailboxToken,
      body: {
        from: alice.mailboxAddress,
        to: [aliceInbox.address],
        subject: '附件',
        text: '见附件',
        attachments: [png.body.data.id, text.body.data.id],
      },
    });
    expect(sent.status).toBe(200);
    expectOk(sent.body);
    const detail = await server.api('GET', `user/getSentDetail?id=${sent.body.data.id}`, {
      token: alice.mailboxToken,
    });
    expect(detail.body.data?.attachments).toEqual([
      { filename: '图片.txt', contentType: 'image/png', size: PNG.length },
      { filename: '说明.txt', contentType: 'text/plain', size: Buffer.byteLength('纯文本') },
    ]);
    const parsed = await simpleParser(
      await rawOf(server, alice.mailboxToken, `sentRaw/${sent.body.data.id}`),
    );
    expect(
      parsed.attachments.map((a) => [
        a.filename,
        a.contentType,
        a.content.equals(a.filename === '图片.txt' ? PNG : Buffer.from('纯文本')),
      ]),
    ).toEqual([
      ['图片.txt', 'image/png', true],
      ['说明.txt', 'text/plain', true],
    ]);
  });

  it('refuses an oversized upload with 413 and leaves nothing behind', async () => {
    await server.app.services.settings.update({ maxMessageBytes: 64 * 1024 });
    try {
      const before = await server.app.database.db.selectFrom('uploads').select('id').execute();
      const big = await upload(server, alice.userToken, Buffer.alloc(200 * 1024, 1), 'big.bin');
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ error: 413 });
      expect(big.body.msg).toContain('附件过大');
      expect(await readdir(join(server.dataDir, 'uploads'))).toEqual([]);
      const after = await server.app.database.db.selectFrom('uploads').select('id').execute();
      expect(after.length).toBe(before.length);
      // a message that would exceed the limit once encoded is refused before it is queued
      const small = await upload(server, alice.userToken, Buffer.alloc(60 * 1024, 2), 'small.bin');
      expect(small.status).toBe(200);
      expectOk(small.body);
      const tooBig = await server.api('POST', 'user/sendEmail', {
        token: alice.userToken,
        body: {
          from: `a@${alice.domain}`,
          to: [aliceInbox.address],
          subject: 'x',
          attachments: [small.body.data.id],
        },
      });
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.msg).toContain('邮件过大');
    } finally {
      await server.app.services.settings.update({ maxMessageBytes: 25 * 1024 * 1024 });
    }
  });

  it('removes uploads nobody sent after 24 hours', async () => {
    const file = await upload(server, bob.userToken, Buffer.from('old'), 'old.txt', 'text/plain');
    expectOk(file.body);
    const { db } = server.app.database;
    await db
      .updateTable('uploads')
      .set({ created_at: Date.now() - 25 * 3_600_000 })
      .where('id', '=', file.body.data.id)
      .execute();
    expect(await server.app.services.uploads.cleanup()).toBeGreaterThanOrEqual(1);
    expect(
      await db.selectFrom('upload_chunks').select('seq').where('upload_id', '=', file.body.data.id).execute(),
    ).toEqual([]);
  });

  it('shows each caller only its own sent mail; another owner’s id is 404', async () => {
    const sent = await server.api('POST', 'user/sendEmail', {
      token: bob.mailboxToken,
      body: { from: bob.mailboxAddress, to: [aliceInbox.address], subject: 'bob 的信', text: '.' },
    });
    expectOk(sent.body);
    const id = sent.body.data.id;
    expect(await sentItem(server, bob.mailboxToken, id)).toBeDefined();
    // the owner of the mailbox's domain sees it too; Alice and her mailbox do not
    expect(await sentItem(server, bob.userToken, id)).toBeDefined();
    expect(await sentItem(server, alice.userToken, id)).toBeUndefined();
    expect(await sentItem(server, alice.mailboxToken, id)).toBeUndefined();
    expect(await sentItem(server, await server.adminToken(), id)).toBeDefined();
    for (const token of [alice.userToken, alice.mailboxToken]) {
      expect((await server.api('GET', `user/getSentDetail?id=${id}`, { token })).status).toBe(404);
      expect((await server.api('POST', 'user/delSentEmail', { token, body: { ids: [id] } })).status).toBe(
        404,
      );
    }
    const deleted = await server.api('POST', 'user/delSentEmail', {
      token: bob.mailboxToken,
      body: { ids: [id] },
    });
    expect(deleted.body).toMatchObject({ error: 0, data: { deleted: 1 } });
    expect(await sentItem(server, bob.mailboxToken, id)).toBeUndefined();
  });

  it('limits sending per hour (429 in Chinese); administrators set the limit', async () => {
    const carol = await senderWorld(server, 'carol');
    await server.app.services.settings.update({ sendPerHour: 2 });
    try {
      const send = () =>
        server.api('POST', 'user/sendEmail', {
          token: carol.mailboxToken,
          body: { from: carol.mailboxAddress, to: [aliceInbox.address], subject: '限额', text: '.' },
        });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const third = await send();
      expect(third.status).toBe(429);
      expect(third.body.msg).toContain('每小时最多发送 2 封');
    } finally {
      await server.app.services.settings.update({ sendPerHour: 100 });
    }
  });

  it('threads a reply: In-Reply-To and References from the stored original', async () => {
    const original = [
      `From: Wang <wang@elsewhere.example>`,
      `To: ${aliceInbox.address}`,
      'Subject: original',
      'Message-ID: <orig-2@elsewhere.example>',
      'References: <root-1@elsewhere.example>',
      '   <orig-1@elsewhere.example>',
      'In-Reply-To: <orig-1@elsewhere.example>',
      '',
      'hello',
      '',
    ].join('\r\n');
    const received = await sendMail(server.smtpPort, {
      from: 'wang@elsewhere.example',
      to: [aliceInbox.address],
      content: Buffer.from(original),
    });
    expect(received.data?.code).toBe(250);
    const sent = await server.api('POST', 'user/sendEmail', {
      token: alice.userToken,
      body: {
        from: aliceInbox.address,
        to: ['wang@elsewhere.example'],
        subject: 'Re: original',
        text: '回复',
        inReplyTo: '<orig-2@elsewhere.example>',
      },
    });
    expectOk(sent.body);
    const raw = (await rawOf(server, alice.userToken, `sentRaw/${sent.body.data.id}`)).toString();
    expect(raw).toMatch(/^In-Reply-To: <orig-2@elsewhere\.example>\r$/m);
    const parsed = await simpleParser(raw);
    expect(parsed.references).toEqual([
      '<root-1@elsewhere.example>',
      '<orig-1@elsewhere.example>',
      '<orig-2@elsewhere.example>',
    ]);
  });

  it('signs with ed25519 beside RSA once the domain has an ed25519 key; both verify', async () => {
    const rotated = await server.api('POST', 'user/rotateDkim', {
      token: bob.userToken,
      body: { id: bob.domainId, algorithm: 'ed25519' },
    });
    expectOk(rotated.body);
    const keys = rotated.body.data.keys ?? [];
    const records = new Map(keys.map((key) => [key.record.name, key.record.value]));
    const ed = keys.find((key) => key.algorithm === 'ed25519');
    const bobInbox = await createAddress(server, bob, 'inbox');
    const sent = await server.api('POST', 'user/sendEmail', {
      token: bob.mailboxToken,
      body: {
        from: bob.mailboxAddress,
        to: [bobInbox.address],
        subject: '双签名',
        text: '两种算法',
      },
    });
    expectOk(sent.body);
    expect((await settled(server, bob.mailboxToken, sent.body.data.id)).status).toBe('delivered');
    const raw = await rawOf(server, bob.mailboxToken, `sentRaw/${sent.body.data.id}`);
    const result = await dkimVerify(raw, {
      resolver: async (name: string, type: string) => {
        const value = type === 'TXT' ? records.get(name) : undefined;
        if (value) return [value.match(/.{1,255}/g) ?? []];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    // Both signatures pass against their published records: RSA (the active key) and ed25519.
    expect(result.results.map((entry) => [entry.selector, entry.status.result]).sort()).toEqual(
      [
        [rotated.body.data.selector, 'pass'],
        [ed?.selector, 'pass'],
      ].sort(),
    );
    const header = raw.subarray(0, raw.indexOf('\r\n\r\n')).toString();
    expect(header).toMatch(new RegExp(`a=ed25519-sha256;[^]*s=${ed?.selector};`));
  });
});
