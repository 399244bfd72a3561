import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { loginMailbox, ownerWithDomain } from './helpers.js';

// Mailbox accounts as the SMTP listener sees them: quota and expiry set through the account API
// are what a real SMTP conversation meets.
let server: TestServer;
let owner: Awaited<ReturnType<typeof ownerWithDomain>>;
beforeAll(async () => {
  server = await startTestServer();
  owner = await ownerWithDomain(server, 'smtp-owner', 'smtp.youju.test');
});
afterAll(async () => server.close());

async function account(localPart: string, body: Record<string, unknown> = {}) {
  const created = await server.api('POST', 'user/createEmailAccount', {
    token: owner.token,
    body: { domainId: owner.domain.id, localPart, password: 'smtp-pass-1', ...body },
  });
  if (created.body.error !== 0) throw new Error(JSON.stringify(created.body));
  return created.body.data;
}

describe('mailbox accounts over SMTP', () => {
  it('counts received mail against the quota, shows used/total, and answers 452 4.2.2 once full', async () => {
    const small = await account('small', { quotaBytes: 2048 });
    const first = await sendMail(server.smtpPort, {
      to: [small.email],
      content: simpleMessage(small.email, '第一封', 'x'.repeat(600)),
    });
    expect(first.data?.code).toBe(250);
    const listed = await server.api('GET', 'user/searchEmailAccount?content=small@', { token: owner.token });
    const row = listed.body.data?.list[0];
    expect(row?.quotaBytes).toBe(2048);
    expect(row?.usedBytes).toBeGreaterThan(600);

    const tooMuch = await sendMail(server.smtpPort, {
      to: [small.email],
      content: simpleMessage(small.email, '第二封', 'y'.repeat(3000)),
    });
    const refusal = tooMuch.data ?? tooMuch.rcpt[0];
    expect(refusal?.code).toBe(452);
    expect(refusal?.text).toMatch(/^4\.2\.2/);

    // Raising the quota through the account API lets mail in again.
    await server.api('POST', 'user/editEmailAccount', {
      token: owner.token,
      body: { id: small.id, quotaBytes: 1024 ** 2 },
    });
    const after = await sendMail(server.smtpPort, {
      to: [small.email],
      content: simpleMessage(small.email, '第三封', 'y'.repeat(3000)),
    });
    expect(after.data?.code).toBe(250);
  });

  it('refuses mail and login for an expired or disabled mailbox, and takes both again once renewed', async () => {
    const expiring = await account('expiring', { expiresAt: Date.now() - 60_000 });
    const refused = await sendMail(server.smtpPort, {
      to: [expiring.email],
      content: simpleMessage(expiring.email, '过期', 'hello'),
    });
    expect(refused.rcpt[0]?.code).toBe(550);
    expect((await loginMailbox(server, expiring.email, 'smtp-pass-1')).status).toBe(403);

    const disabled = await account('disabled');
    await server.api('POST', 'user/batchEditEmailAccount', {
      token: owner.token,
      body: { ids: [disabled.id], enabled: false },
    });
    const refusedDisabled = await sendMail(server.smtpPort, {
      to: [disabled.email],
      content: simpleMessage(disabled.email, '停用', 'hello'),
    });
    expect(refusedDisabled.rcpt[0]?.code).toBe(550);

    await server.api('POST', 'user/batchEditEmailAccount', {
      token: owner.token,
      body: { ids: [expiring.id], extendDays: 30 },
    });
    const accepted = await sendMail(server.smtpPort, {
      to: [expiring.email],
      content: simpleMessage(expiring.email, '续期后', 'hello'),
    });
    expect(accepted.data?.code).toBe(250);
    expect((await loginMailbox(server, expiring.email, 'smtp-pass-1')).body.error).toBe(0);
  });
});
