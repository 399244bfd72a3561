import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createAddress, createUserWithDomain, inbox } from '../support/fixtures.js';
import { sendMail } from '../support/smtp-client.js';
import { expectOk } from '../support/api.js';

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
    const content = Buffer.from(
      [
        'From: "Evil\0Name" <sender@sender.example>',
        `To: <${address}>`,
        'Subject: null\0byte subject',
        'Message-ID: <nul\0id@sender.example>',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'body with a \0 inside',
        '--b',
        'Content-Type: application/octet-stream; name="a\0b.bin"',
        'Content-Disposition: attachment; filename="a\0b.bin"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('payload').toString('base64'),
        '--b--',
        '',
      ].join('\r\n'),
      'latin1',
    );
    const result = await sendMail(server.smtpPort, { to: [address], content });
    expect(result.data?.code).toBe(250);
    const list = await inbox(server, userToken, '&q=byte');
    expect(list.total).toBe(1);
    expect(list.list[0].subject).toBe('nullbyte subject');
    const detail = await server.api('GET', `user/getEmail?id=${list.list[0].id}`, { token: userToken });
    expectOk(detail.body);
    expect(detail.body.data.text).toContain('body with a  inside');
    const raw = await fetch(`${server.baseUrl}/api/user/raw/${list.list[0].id}`, {
      headers: { authorization: `Bearer ${userToken}` },
    });
    expect(Buffer.from(await raw.arrayBuffer()).equals(content)).toBe(true);
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
