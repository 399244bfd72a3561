import type { Domain } from '@youju/contract';
import type { DataOf } from './api.js';
import type { TestServer } from './test-server.js';

let accounts = 0;

/** A username no other test of the run has taken: the label, a counter and a clock suffix. */
export function uniqueUsername(label: string): string {
  accounts++;
  return `${label}${accounts}${Date.now().toString(36).slice(-4)}`;
}

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

/**
 * Marks a user's pending domain verified, as verifyDomain does once its TXT record holds: a test
 * shortcut for tests about something else (test/security/domain-ownership.test.ts verifies through a
 * real DNS server).
 */
export async function markDomainVerified(server: TestServer, id: number): Promise<void> {
  await server.app.database.db
    .updateTable('domains')
    .set({ status: 'active', verification_token: null })
    .where('id', '=', id)
    .execute();
}

/**
 * Adds a domain for the token's owner and returns it, verified (a user's domain starts pending)
 * unless `pending` is asked for.
 */
export async function addDomain(
  server: TestServer,
  token: string,
  name: string,
  options: {
    publicRegistration?: boolean;
    forSale?: boolean;
    price?: number;
    confirmFreeAndSale?: boolean;
    pending?: boolean;
  } = {},
): Promise<Domain> {
  const { pending, ...fields } = options;
  const { body } = await server.api('POST', 'user/addDomain', { token, body: { name, ...fields } });
  if (body.error !== 0) throw new Error(`addDomain: ${JSON.stringify(body)}`);
  if (body.data.status === 'pending' && !pending) {
    await markDomainVerified(server, body.data.id);
    return { ...body.data, status: 'active' };
  }
  return body.data;
}

/** The API key of the account behind `token` (getKey shows it in full until it is first used). */
export async function apiKeyOf(server: TestServer, token: string): Promise<string> {
  const { body } = await server.api('GET', 'user/getKey', { token });
  if (body.error !== 0) throw new Error(`getKey: ${JSON.stringify(body)}`);
  return body.data.key;
}

/** A system user with a verified domain of its own, open for registration. */
export interface MailWorld {
  adminToken: string;
  userToken: string;
  userId: number;
  username: string;
  domainId: number;
  domain: string;
}

/** A new system user (named after `label`) with its own domain `<username>.youju.test`. */
export async function createUserWithDomain(server: TestServer, label: string): Promise<MailWorld> {
  const username = uniqueUsername(label);
  const user = await createUser(server, username);
  const domain = `${username}.youju.test`;
  const added = await addDomain(server, user.token, domain, { publicRegistration: true });
  return {
    adminToken: await server.adminToken(),
    userToken: user.token,
    userId: user.id,
    username,
    domainId: added.id,
    domain,
  };
}

/** A new address on the world's domain, created by its owner (a random local part unless given). */
export async function createAddress(
  server: TestServer,
  world: Pick<MailWorld, 'userToken' | 'domainId'>,
  localPart?: string,
): Promise<{ id: number; address: string }> {
  const { body } = await server.api('POST', 'user/createEmail', {
    token: world.userToken,
    body: { domainId: world.domainId, ...(localPart ? { localPart } : {}) },
  });
  if (body.error !== 0) throw new Error(JSON.stringify(body));
  return body.data;
}

/** getInbox's data; `query` starts with `&`. Delivery is synchronous, so no polling is needed. */
export async function inbox(server: TestServer, token: string, query = ''): Promise<DataOf<'user/getInbox'>> {
  const size = query.includes('pageSize=') ? '' : 'pageSize=100';
  const { body } = await server.api('GET', `user/getInbox?${size}${query}`, { token });
  if (body.error !== 0) throw new Error(JSON.stringify(body));
  return body.data;
}
