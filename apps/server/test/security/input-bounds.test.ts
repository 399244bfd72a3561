import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, getRaw, type HttpMethod } from '../support/api.js';
import { apiKeyOf, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

/** Smaller holes: absurd paging and ids gave 500, no security headers, API keys outliving passwords. */
describe('input bounds, headers and key revocation', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    ({ server, admin } = await startTestServerAsAdmin());
  });
  afterAll(async () => server?.close());

  it('answers 400, never 500, to absurd pages and ids', async () => {
    const cases: [HttpMethod, string][] = [
      ['GET', 'user/getInbox?page=1e999'],
      ['GET', 'user/getInbox?page=99999999999999999999'],
      ['GET', 'user/getInbox?pageSize=1e999'],
      ['GET', 'user/getInbox?page=-1'],
      ['GET', 'user/getInbox?page=NaN'],
      ['GET', 'user/getSentEmail?page=1e308'],
      ['GET', 'user/getEmailAccount?page=1e999'],
      ['GET', 'user/getCard?page=1e999'],
      ['GET', 'admin/getSysAccount?page=1e999'],
      ['GET', `user/getEmail?id=${'9'.repeat(1000)}`],
      ['GET', 'user/getEmail?id=99999999999999999999'],
      ['GET', `user/getDkim?id=${'9'.repeat(40)}`],
      ['DELETE', `user/deleteEmail/${'9'.repeat(1000)}`],
      ['GET', `user/attachment/${'9'.repeat(1000)}`],
      ['GET', `user/raw/${'9'.repeat(1000)}`],
    ];
    for (const [method, path] of cases) {
      const { status, body } = await server.api(method, path, { token: admin });
      expect(status, path).toBe(400);
      expect(body.error, path).toBe(400);
    }
    // JSON numbers beyond what an id can be, sent as the text a client would send
    for (const body of ['{"ids":[1e308]}', '{"ids":[99999999999999999999]}']) {
      const answer = await server.api('POST', 'user/delEmail', { token: admin, body });
      expect(answer.status).toBe(400);
    }
    const range = await server.api('POST', 'user/deleteEmailsInTimeRange', {
      token: admin,
      body: { start: 0, end: 1e308 },
    });
    expect(range.status).toBe(400);
  });

  it('sends the security headers on the API and the client', async () => {
    const response = await getRaw(server, 'getVar');
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(response.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    // HSTS only over HTTPS (RFC 6797 7.2)
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('revokes an API key with a password change, and refuses it while the account is disabled', async () => {
    const user = await createUser(server, 'key-holder');
    const key = await apiKeyOf(server, user.token);
    const call = () => server.api('GET', 'open/getInbox?address=x@y.test', { headers: { 'x-api-key': key } });
    expect((await call()).status).not.toBe(403);
    const changed = await server.api('POST', 'user/changePassword', {
      token: user.token,
      body: { oldPassword: user.password, newPassword: 'new-password-2' },
    });
    expectOk(changed.body);
    expect((await call()).status).toBe(403);

    const other = await createUser(server, 'key-disabled');
    const otherKey = await apiKeyOf(server, other.token);
    await server.api('POST', 'admin/editSysAccount', {
      token: admin,
      body: { id: other.id, enabled: false },
    });
    await server.api('POST', 'admin/editSysAccount', { token: admin, body: { id: other.id, enabled: true } });
    const answer = await server.api('GET', 'open/getInbox?address=x@y.test', {
      headers: { 'x-api-key': otherKey },
    });
    expect(answer.status).toBe(403);
  });

  it('shows no part of a stored secret', async () => {
    await server.api('POST', 'user/updateSetting', {
      token: admin,
      body: { system: { relayUrl: 'smtp://mailer:s3cr3t-pass@relay.example.com:587' } },
    });
    const { body } = await server.api('GET', 'user/getSetting', { token: admin });
    expect(body.data?.system?.relayUrl).toBe('smtp://mailer:******@relay.example.com:587');
    expect(JSON.stringify(body)).not.toContain('ss@');
  });
});
