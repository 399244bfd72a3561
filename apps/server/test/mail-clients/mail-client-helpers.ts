import { ImapFlow } from 'imapflow';
import type { TestServer } from '../support/test-server.js';
import { createAddress, createUserWithDomain, type MailWorld } from '../support/fixtures.js';

/** A mailbox account (address and password, as a mail client logs in) with a web session. */
export interface MailAccount {
  id: number;
  email: string;
  password: string;
  /** a `loginEmail` session of the mailbox, for the web's side of shared state */
  token: string;
  world: MailWorld;
}

/** A new user with its domain and one mailbox account with a password on it. */
export async function createMailAccount(server: TestServer, label: string, world?: MailWorld): Promise<MailAccount> {
  const owner = world ?? (await createUserWithDomain(server, label));
  const password = `pw-${label}-Secret1`;
  const localPart = `${label}${Math.random().toString(36).slice(2, 7)}`;
  const created = await server.api('POST', 'user/createEmailAccount', {
    token: owner.userToken,
    body: { domainId: owner.domainId, localPart, password },
  });
  if (created.body.error !== 0) throw new Error(JSON.stringify(created.body));
  const email = `${localPart}@${owner.domain}`;
  const login = await server.api('POST', 'loginEmail', { body: { email, password } });
  if (login.body.error !== 0) throw new Error(JSON.stringify(login.body));
  return { id: created.body.data.id, email, password, token: login.body.data.token, world: owner };
}

/** imapflow logged in as `account` on loopback without TLS (allowed for loopback clients). */
export async function imapClient(port: number, account: Pick<MailAccount, 'email' | 'password'>): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    doSTARTTLS: false,
    auth: { user: account.email, pass: account.password },
    logger: false,
  });
  await client.connect();
  return client;
}

export { createAddress };
