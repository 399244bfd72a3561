import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined, expectOk, getRaw } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox } from '../support/fixtures.js';
import { messageWithAttachment, sendMail, splitAddedHeaders } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A NUL byte in a header made every retry of that message fail with 451 on PostgreSQL (text columns
 * cannot hold U+0000), and API strings with NUL answered 500.
 */
describe('NUL bytes', () => {
  let server: TestServer;
  let userToken: string;
  let address: string;
  beforeAll(async () => {
    server = await startTestServer();
    const world = await createUserWithDomain(server, 'nul');
    userToken = world.userToken;
    address = (await createAddress(server, world, 'inbox')).address;
  });
  afterAll(async () => server?.close());

  it('stores mail with NUL in headers, body and attachment name, raw bytes intact', async () => {
    const content = messageWithAttachment(
      [
        'From: "Evil\0Name" <sender@sender.example>',
        `To: <${address}>`,
        'Subject: null\0byte subject',
        'Message-ID: <nul\0id@sender.example>',
      ],
      'body with a \0 inside',
      {
        headers: [
          'Content-Type: application/octet-stream; name="a\0b.bin"',
          'Content-Disposition: attachment; filename="a\0b.bin"',
          'Content-Transfer-Encoding: base64',
        ],
        body: Buffer.from('payload').toString('base64'),
      },
    );
    const result = await sendMail(server.smtpPort, { to: [address], content });
    expect(result.data?.code).toBe(250);
    const list = await inbox(server, userToken, '&q=byte');
    expect(list.total).toBe(1);
    const message = expectDefined(list.list[0], 'the message');
    expect(message.subject).toBe('nullbyte subject');
    const detail = await server.api('GET', `user/getEmail?id=${message.id}`, { token: userToken });
    expectOk(detail.body);
    expect(detail.body.data.text).toContain('body with a  inside');
    const raw = await getRaw(server, `user/raw/${message.id}`, { token: userToken });
    expect(splitAddedHeaders(raw.bytes).message.equals(content)).toBe(true);
  });

  it('refuses NUL in API input with 400 naming the field, in body, query and path', async () => {
    const body = await server.api('POST', 'login', { body: { username: 'adm\0in', password: 'x' } });
    expect(body.status).toBe(400);
    expect(body.body.msg).toMatch(/空字符/);
    const query = await server.api('GET', 'user/getInbox?q=a%00b', { token: userToken });
    expect(query.status).toBe(400);
    const nested = await server.api('POST', 'user/sendEmail', {
      token: userToken,
      body: { from: address, to: ['x\0@example.com'], subject: 's', text: 't' },
    });
    expect(nested.status).toBe(400);
    const search = await server.api('GET', 'user/searchEmailAccount?content=%00', { token: userToken });
    expect(search.status).toBe(400);
  });
});
