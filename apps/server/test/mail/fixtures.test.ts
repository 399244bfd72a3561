import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined, expectOk, getRaw } from '../support/api.js';
import { createAddress, createUserWithDomain, type MailWorld } from '../support/fixtures.js';
import { sendMail, splitAddedHeaders } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtureBytes, fixtureList } from './mail-helpers.js';

let server: TestServer;
let world: MailWorld;

beforeAll(async () => {
  server = await startTestServer();
  world = await createUserWithDomain(server, 'fx');
  // The 20 MB attachment is about 27 MB in base64.
  await server.app.services.settings.update({ maxMessageBytes: 40 * 1024 * 1024 });
});
afterAll(async () => server.close());

function download(path: string, token: string) {
  return getRaw(server, path, { token });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('fixture corpus over a real SMTP socket', () => {
  const fixtures = fixtureList();

  it('has at least 25 fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(25);
  });

  for (const fixture of fixtures) {
    it(`receives ${fixture.file}`, async () => {
      const mailbox = await createAddress(server, world);
      const content = fixtureBytes(fixture.file, mailbox.address);
      const result = await sendMail(server.smtpPort, { to: [mailbox.address], content });
      expect(result.data?.code, JSON.stringify(result)).toBe(250);

      const list = await server.api('GET', `user/getInbox?address=${encodeURIComponent(mailbox.address)}`, {
        token: world.userToken,
      });
      expectOk(list.body);
      expect(list.body.data.total).toBe(1);
      const item = expectDefined(list.body.data.list[0], 'the message');
      expect(item.subject).toBe(fixture.subject);
      if (fixture.from) expect(item.from).toEqual(fixture.from);

      const { body } = await server.api('GET', `user/getEmail?id=${item.id}`, { token: world.userToken });
      expectOk(body);
      const mail = body.data;
      expect(mail.read).toBe(true);
      if (fixture.text !== undefined) expect((mail.text ?? '').trim()).toBe(fixture.text);
      for (const part of fixture.textContains ?? []) expect(mail.text).toContain(part);
      if (fixture.textEmpty) expect((mail.text ?? '').trim()).toBe('');
      if (fixture.textContainsAny)
        expect(`${mail.text ?? ''}${mail.html ?? ''}`).toContain('body behind a wrong boundary');
      for (const part of fixture.htmlContains ?? []) expect(mail.html).toContain(part);
      for (const part of fixture.htmlNotContains ?? []) expect(mail.html).not.toContain(part);
      if (fixture.cc) expect(mail.cc).toEqual(fixture.cc);
      for (const person of fixture.toContains ?? []) expect(mail.to).toContainEqual(person);
      expect(mail.text ?? '').not.toContain('\uFFFD');
      expect(mail.subject).not.toContain('\uFFFD');

      if (fixture.attachments) {
        expect(mail.attachments.map((a) => a.filename)).toEqual(fixture.attachments.map((a) => a.filename));
        for (const [index, expected] of fixture.attachments.entries()) {
          const meta = expectDefined(mail.attachments[index], `attachment ${index}`);
          expect(meta.contentType).toBe(expected.contentType);
          expect(meta.size).toBe(expected.size);
          const file = await download(`user/attachment/${meta.id}`, world.userToken);
          expect(file.status).toBe(200);
          expect(sha256(file.bytes)).toBe(expected.sha256);
          expect(file.headers.get('content-disposition')).toContain(
            `filename*=UTF-8''${encodeURIComponent(expected.filename)}`,
          );
        }
      }
      if (fixture.inlineCid) {
        const inline = mail.attachments.find((a) => a.contentId === fixture.inlineCid);
        expect(inline?.inline).toBe(true);
        expect(mail.html).toContain(`/api/user/attachment/${inline?.id}`);
        expect(mail.hasAttachments).toBe(true);
      }

      const raw = await download(`user/raw/${item.id}`, world.userToken);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toContain('message/rfc822');
      // Stored as received, after the Authentication-Results header of the inbound checks.
      const stored = splitAddedHeaders(raw.bytes);
      expect(stored.added.toString()).toContain('Authentication-Results: mx.youju.test;');
      expect(stored.message.equals(content)).toBe(true);
      expect(item.size).toBe(raw.bytes.length);
    });
  }

  // 27 MB of base64 each way: minutes on a loaded 2-core machine, so a bound on a hang of three.
  it('receives a 20 MB attachment intact, streamed both ways', async () => {
    const mailbox = await createAddress(server, world);
    const data = randomBytes(20 * 1024 * 1024);
    const base64 = data.toString('base64').replace(/.{76}/g, '$&\r\n');
    const content = Buffer.from(
      [
        'From: Big Sender <big@sender.example>',
        `To: <${mailbox.address}>`,
        'Subject: =?UTF-8?B?5aSn6ZmE5Lu2?=',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="big"',
        '',
        '--big',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'twenty megabytes',
        '--big',
        'Content-Type: application/octet-stream',
        "Content-Disposition: attachment; filename*=UTF-8''%E5%A4%A7%E6%96%87%E4%BB%B6.bin",
        'Content-Transfer-Encoding: base64',
        '',
        base64,
        '--big--',
        '',
      ].join('\r\n'),
    );
    const result = await sendMail(server.smtpPort, { to: [mailbox.address], content });
    expect(result.data?.code, JSON.stringify(result)).toBe(250);
    const list = await server.api('GET', `user/getInbox?address=${mailbox.address}`, {
      token: world.userToken,
    });
    expectOk(list.body);
    const item = expectDefined(list.body.data.list[0], 'the message');
    expect(item.subject).toBe('大附件');
    expect(item.hasAttachments).toBe(true);
    const { body } = await server.api('GET', `user/getEmail?id=${item.id}`, { token: world.userToken });
    expectOk(body);
    const attachment = expectDefined(body.data.attachments[0], 'the attachment');
    expect(attachment).toMatchObject({ filename: '大文件.bin', size: data.length });
    const file = await download(`user/attachment/${attachment.id}`, world.userToken);
    expect(file.bytes.length).toBe(data.length);
    expect(sha256(file.bytes)).toBe(sha256(data));
    const raw = await download(`user/raw/${item.id}`, world.userToken);
    expect(splitAddedHeaders(raw.bytes).message.equals(content)).toBe(true);
  }, 180_000);
});
