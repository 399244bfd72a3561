import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined, getRaw } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox } from '../support/fixtures.js';
import { messageWithAttachment, sendMail } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A raw message or an attachment opened in the browser is the sender's content on our origin: it
 * must keep its own policy (sandbox, nothing loads), not the looser one every other response gets.
 */
describe('sandbox policy of mail content', () => {
  let server: TestServer;
  let userToken: string;
  let messageId: number;
  beforeAll(async () => {
    server = await startTestServer();
    const world = await createUserWithDomain(server, 'sandbox');
    userToken = world.userToken;
    const address = (await createAddress(server, world, 'inbox')).address;
    const content = messageWithAttachment(
      ['From: <sender@sender.example>', `To: <${address}>`, 'Subject: sandboxed'],
      'see the attachment',
      {
        headers: [
          'Content-Type: text/html; name="page.html"',
          'Content-Disposition: attachment; filename="page.html"',
        ],
        body: '<script>alert(document.cookie)</script>',
      },
    );
    expect((await sendMail(server.smtpPort, { to: [address], content })).data?.code).toBe(250);
    messageId = expectDefined((await inbox(server, userToken)).list[0], 'the message').id;
  });
  afterAll(async () => server?.close());

  it.each([
    ['raw message', () => `user/raw/${messageId}`],
    ['attachment', () => `user/attachment/${messageId}-0`],
  ])('serves the %s with the sandbox policy', async (_what, path) => {
    const response = await getRaw(server, path(), { token: userToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps the application policy on other responses', async () => {
    const response = await getRaw(server, 'getVar');
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
  });
});
