import type { TestServer } from './test-server.js';

/** Creates a system account with role `user` through the admin API and returns its login token. */
export async function createUser(
  server: TestServer,
  username: string,
  options: { password?: string; maxDomains?: number; role?: 'user' | 'admin' } = {},
): Promise<{ id: number; token: string; password: string }> {
  const password = options.password ?? 'user-password-1';
  const admin = await server.adminToken();
  const created = await server.api('POST', 'admin/createSysAccount', {
    token: admin,
    body: { username, password, role: options.role ?? 'user', maxDomains: options.maxDomains ?? 0 },
  });
  if (created.body.error !== 0) throw new Error(`createSysAccount: ${JSON.stringify(created.body)}`);
  const login = await server.api('POST', 'login', { body: { username, password } });
  if (login.body.error !== 0) throw new Error(`login: ${JSON.stringify(login.body)}`);
  return { id: created.body.data.id, token: login.body.data.token, password };
}

/** Adds a domain for the token's owner and returns it. */
export async function addDomain(
  server: TestServer,
  token: string,
  name: string,
  options: { publicRegistration?: boolean; forSale?: boolean; price?: number } = {},
): Promise<{ id: number; name: string }> {
  const { body } = await server.api('POST', 'user/addDomain', { token, body: { name, ...options } });
  if (body.error !== 0) throw new Error(`addDomain: ${JSON.stringify(body)}`);
  return body.data;
}
