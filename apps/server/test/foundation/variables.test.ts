import {
  cleanDecryptedText,
  DEFAULT_PERMISSION_KEY,
  decryptPermissionData,
  type PermissionData,
  permissionsFor,
} from '@youju/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const KEY = '0123456789abcdef0123456789abcdef';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { PERMISSION_KEY: KEY } });
});
afterAll(async () => server.close());

function permissions(payload: string, key = KEY): PermissionData {
  return JSON.parse(cleanDecryptedText(decryptPermissionData(payload, key)));
}

describe('getVar', () => {
  it('returns public settings and the payload at the top level', async () => {
    const { status, body } = await server.api('GET', 'getVar');
    expect(status).toBe(200);
    expect(body).toMatchObject({ error: 0, msg: 'ok' });
    expect(typeof body.permissionData).toBe('string');
    expect(body.settings).toMatchObject({
      siteName: '邮局',
      initialized: true,
      registrationOpen: true,
      storeOpen: true,
      retentionDays: 30,
    });
    expect(body.settings.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body).not.toHaveProperty('data');
  });

  it('encrypts the caller permissions with the configured key', async () => {
    const anonymous = await server.api('GET', 'getVar');
    expect(permissions(anonymous.body.permissionData)).toEqual({ role: 'anonymous', permissions: [] });
    expect(() => permissions(anonymous.body.permissionData, DEFAULT_PERMISSION_KEY)).toThrow();

    const admin = await server.api('GET', 'getVar', { token: await server.adminToken() });
    expect(permissions(admin.body.permissionData)).toEqual({
      role: 'admin',
      permissions: permissionsFor('admin'),
      name: 'admin',
    });

    const user = await createUser(server, 'var-user');
    const asUser = permissions(
      (await server.api('GET', 'getVar', { token: user.token })).body.permissionData,
    );
    expect(asUser.role).toBe('user');
    expect(asUser.permissions).not.toContain('menu:sysAccount');
    expect(asUser.permissions).toContain('menu:inbox');
  });

  it('treats a bad token as anonymous rather than failing', async () => {
    const { body } = await server.api('GET', 'getVar', { token: 'expired-token' });
    expect(body.error).toBe(0);
    expect(permissions(body.permissionData).role).toBe('anonymous');
  });

  it('lists open domains and reflects settings at once', async () => {
    await addDomain(server, await server.adminToken(), 'vars.youju.test', { publicRegistration: true });
    await server.app.services.settings.update({ siteName: '测试邮局', announcement: '欢迎' });
    const { body } = await server.api('GET', 'getVar');
    expect(body.settings).toMatchObject({ siteName: '测试邮局', announcement: '欢迎' });
    expect(body.settings.mailDomains).toContain('vars.youju.test');
  });
});
