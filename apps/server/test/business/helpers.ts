import { expectOk } from '../support/api.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

/** A system user with one domain of its own (open for registration and for sale unless told). */
export async function ownerWithDomain(
  server: TestServer,
  username: string,
  domainName: string,
  options: { publicRegistration?: boolean; forSale?: boolean; price?: number; maxMailboxes?: number } = {},
) {
  const user = await createUser(server, username);
  if (options.maxMailboxes !== undefined) {
    const edited = await server.api('POST', 'admin/editSysAccount', {
      token: await server.adminToken(),
      body: { id: user.id, maxMailboxes: options.maxMailboxes },
    });
    if (edited.body.error !== 0) throw new Error(`editSysAccount: ${JSON.stringify(edited.body)}`);
  }
  const domain = await addDomain(server, user.token, domainName, {
    publicRegistration: options.publicRegistration ?? true,
    forSale: options.forSale ?? true,
    price: options.price ?? 990,
    // both open and for sale by default: the owner confirms the combination, as the screen asks
    confirmFreeAndSale: true,
  });
  return { ...user, domain };
}

export type Owner = Awaited<ReturnType<typeof ownerWithDomain>>;

/**
 * The shop most business tests run in: a server, its administrator, and two owners each selling
 * mailboxes on a domain of their own (alice.youju.test, bob.youju.test; 9.90 unless told).
 */
export async function startShop(prices: { alice?: number; bob?: number } = {}) {
  const { server, admin } = await startTestServerAsAdmin();
  const alice = await ownerWithDomain(server, 'alice', 'alice.youju.test', { price: prices.alice ?? 990 });
  const bob = await ownerWithDomain(server, 'bob', 'bob.youju.test', { price: prices.bob ?? 990 });
  return { server, admin, alice, bob };
}

/** Logs in with a mailbox; returns the whole answer so tests can look at refusals too. */
export function loginMailbox(server: TestServer, email: string, password: string) {
  return server.api('POST', 'loginEmail', { body: { email, password } });
}

/** Logs in with a mailbox that must accept the password, and returns the session token. */
export async function mailboxSession(server: TestServer, email: string, password: string): Promise<string> {
  const { body } = await loginMailbox(server, email, password);
  expectOk(body);
  return body.data.token;
}

export async function mailboxRow(server: TestServer, address: string) {
  return server.app.database.db
    .selectFrom('mailboxes')
    .selectAll()
    .where('address', '=', address)
    .executeTakeFirst();
}

export async function countMailboxes(server: TestServer, address: string): Promise<number> {
  const rows = await server.app.database.db
    .selectFrom('mailboxes')
    .select('id')
    .where('address', '=', address)
    .execute();
  return rows.length;
}
