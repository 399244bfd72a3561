import type { Insertable } from 'kysely';
import type { DomainRow, DomainTable, DomainUpdate } from '../schema.js';
import type { Queryable } from './queryable.js';

/**
 * Whose domains (and the mailboxes on them) a query reaches: every owner's, or one system
 * account's. The services decide which applies to a caller; the queries only apply it.
 */
export type OwnerScope = { kind: 'all' } | { kind: 'owner'; ownerId: number };

export async function findDomainById(db: Queryable, id: number): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The domain called exactly `name` (already normalised: lower case, no final dot). */
export async function findDomainByName(db: Queryable, name: string): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('name', '=', name).executeTakeFirst();
}

/** The id and name of the domain called `name`: what signing mail from it needs. */
export async function findDomainIdentityByName(
  db: Queryable,
  name: string,
): Promise<Pick<DomainRow, 'id' | 'name'> | undefined> {
  return db.selectFrom('domains').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

/** The domains within `scope`, in the order they were added. */
export async function listDomains(db: Queryable, scope: OwnerScope): Promise<DomainRow[]> {
  let query = db.selectFrom('domains').selectAll().orderBy('id');
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  return query.execute();
}

export async function countDomainsOfOwner(db: Queryable, ownerId: number): Promise<number> {
  const { count } = await db
    .selectFrom('domains')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Deletes the pending (unproven) claims of accounts other than `ownerId` made before `claimedBefore`
 * on `name`, on one of the names `above` it, or on a name under it.
 */
export async function deleteLapsedClaims(
  db: Queryable,
  claim: { name: string; above: string[]; ownerId: number; claimedBefore: number },
): Promise<void> {
  await db
    .deleteFrom('domains')
    .where('status', '=', 'pending')
    .where('owner_id', '<>', claim.ownerId)
    .where('created_at', '<', claim.claimedBefore)
    .where((eb) =>
      eb.or([
        eb('name', '=', claim.name),
        eb('name', 'in', claim.above),
        eb('name', 'like', `%.${claim.name}`),
      ]),
    )
    .execute();
}

/** Whether a domain called exactly `name` exists, whoever holds it. */
export async function domainNameExists(db: Queryable, name: string): Promise<boolean> {
  const row = await db.selectFrom('domains').select('id').where('name', '=', name).executeTakeFirst();
  return row !== undefined;
}

/**
 * The name of a domain of another account than `ownerId` that is one of the names `above` `name`
 * or lies under `name`, or undefined when there is none.
 */
export async function findOverlappingDomainOfOthers(
  db: Queryable,
  claim: { name: string; above: string[]; ownerId: number },
): Promise<string | undefined> {
  const row = await db
    .selectFrom('domains')
    .select('name')
    .where('owner_id', '<>', claim.ownerId)
    .where((eb) => eb.or([eb('name', 'in', claim.above), eb('name', 'like', `%.${claim.name}`)]))
    .executeTakeFirst();
  return row?.name;
}

export async function insertDomain(db: Queryable, values: Insertable<DomainTable>): Promise<DomainRow> {
  return db.insertInto('domains').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A pending domain whose ownership was proven becomes active (an active one stays as it is). */
export async function activatePendingDomain(db: Queryable, id: number): Promise<void> {
  await db
    .updateTable('domains')
    .set({ status: 'active', verification_token: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** What the owner offers on the domain: free registration, the store and its price. */
export async function updateDomainOffer(
  db: Queryable,
  id: number,
  changes: Pick<DomainUpdate, 'public_registration' | 'for_sale' | 'price'>,
): Promise<void> {
  await db.updateTable('domains').set(changes).where('id', '=', id).execute();
}

/** Names the selector of the domain's signing (RSA) DKIM key. */
export async function setDomainDkimSelector(db: Queryable, id: number, selector: string): Promise<void> {
  await db.updateTable('domains').set({ dkim_selector: selector }).where('id', '=', id).execute();
}

/** Stores the outcome of the last DNS check. */
export async function recordDomainDnsStatus(
  db: Queryable,
  id: number,
  dnsStatus: string,
  checkedAt: number,
): Promise<void> {
  await db
    .updateTable('domains')
    .set({ dns_status: dnsStatus, dns_checked_at: checkedAt })
    .where('id', '=', id)
    .execute();
}

export async function deleteDomain(db: Queryable, id: number): Promise<void> {
  await db.deleteFrom('domains').where('id', '=', id).execute();
}

/** Active domains open for free registration, by name. */
export async function listDomainsOpenForRegistration(
  db: Queryable,
): Promise<Pick<DomainRow, 'id' | 'name'>[]> {
  return db
    .selectFrom('domains')
    .select(['id', 'name'])
    .where('public_registration', '=', 1)
    .where('status', '=', 'active')
    .orderBy('name')
    .execute();
}

/** Active domains whose mailboxes are for sale in the store, by name. */
export async function listDomainsForSale(
  db: Queryable,
): Promise<Pick<DomainRow, 'id' | 'name' | 'price' | 'owner_id' | 'public_registration'>[]> {
  return (
    db
      .selectFrom('domains')
      .select(['id', 'name', 'price', 'owner_id', 'public_registration'])
      .where('for_sale', '=', 1)
      // never a silent ¥0 (migration 058 took such rows off sale; this keeps it so)
      .where('price', '>', 0)
      .where('status', '=', 'active')
      .orderBy('name')
      .execute()
  );
}

/** Whether `name` is an active domain of this service (a pending claim is not). */
export async function activeDomainNameExists(db: Queryable, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('name', '=', name)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

/** The names among `names` (at least one) that are active domains of this service. */
export async function listActiveDomainNamesAmong(db: Queryable, names: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('domains')
    .select('name')
    .where('name', 'in', names)
    .where('status', '=', 'active')
    .execute();
  return rows.map((row) => row.name);
}

/** The state (`pending` or `active`) of the domain called `name`, or undefined when there is none. */
export async function findDomainStatusByName(
  db: Queryable,
  name: string,
): Promise<Pick<DomainRow, 'status'> | undefined> {
  return db.selectFrom('domains').select('status').where('name', '=', name).executeTakeFirst();
}

/** The id of domain `id` if it lies within `scope`. */
export async function findDomainIdInScope(
  db: Queryable,
  scope: OwnerScope,
  id: number,
): Promise<number | undefined> {
  let query = db.selectFrom('domains').select('id');
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  const row = await query.where('id', '=', id).executeTakeFirst();
  return row?.id;
}

/** The id of the first domain added within `scope`. */
export async function findFirstDomainIdInScope(
  db: Queryable,
  scope: OwnerScope,
): Promise<number | undefined> {
  let query = db.selectFrom('domains').select('id');
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  const row = await query.orderBy('id', 'asc').executeTakeFirst();
  return row?.id;
}

/** The domains within `scope` counted by the outcome of their last DNS check. */
export async function countDomainsByDnsStatus(
  db: Queryable,
  scope: OwnerScope,
): Promise<{ dns_status: string; count: number }[]> {
  let query = db.selectFrom('domains');
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  return query
    .select(['dns_status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('dns_status')
    .execute();
}
