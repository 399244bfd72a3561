import { sql } from 'kysely';
import { runCompiled } from '../compiled-query.js';
import type { MailboxRow, NewMailboxRow } from '../schema.js';
import type { OwnerScope } from './domain-repo.js';
import { likePattern, type MailboxScope, unreadMessageCount } from './message-repo.js';
import type { Queryable } from './queryable.js';

// ---- any mailbox (addresses and accounts) ----

/** The id of the mailbox (of any kind) with exactly this address, or undefined. */
export async function findMailboxIdByAddress(db: Queryable, address: string): Promise<number | undefined> {
  const row = await db.selectFrom('mailboxes').select('id').where('address', '=', address).executeTakeFirst();
  return row?.id;
}

/** One mailbox the caller knows exists (it holds its session); throws otherwise. */
export async function getMailboxById(db: Queryable, id: number): Promise<MailboxRow> {
  return db.selectFrom('mailboxes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The mailbox (of any kind) with this id, or undefined. */
export async function findMailboxById(db: Queryable, id: number): Promise<MailboxRow | undefined> {
  return db.selectFrom('mailboxes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The mailbox (of any kind) with exactly this address, or undefined. */
export async function findMailboxByAddress(db: Queryable, address: string): Promise<MailboxRow | undefined> {
  return db.selectFrom('mailboxes').selectAll().where('address', '=', address).executeTakeFirst();
}

/** Sets when a mailbox expires and how much it may hold (a renewal). */
export async function setMailboxExpiryAndQuota(
  db: Queryable,
  id: number,
  values: { expires_at: number; quota_bytes: number },
): Promise<void> {
  await db.updateTable('mailboxes').set(values).where('id', '=', id).execute();
}

/** What a session of the mailbox needs on every request: its address and whether it may be used. */
export async function findMailboxIdentity(
  db: Queryable,
  id: number,
): Promise<Pick<MailboxRow, 'id' | 'address' | 'enabled' | 'expires_at' | 'password_hash'> | undefined> {
  return db
    .selectFrom('mailboxes')
    .select(['id', 'address', 'enabled', 'expires_at', 'password_hash'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Mailboxes of every kind the account owns (its addresses and its accounts). */
export async function countMailboxesOfOwner(db: Queryable, ownerId: number): Promise<number> {
  const { count } = await db
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function countMailboxesOnDomain(db: Queryable, domainId: number): Promise<number> {
  const { count } = await db
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('domain_id', '=', domainId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function insertMailbox(db: Queryable, values: NewMailboxRow): Promise<MailboxRow> {
  return db.insertInto('mailboxes').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Applies `changes` to one mailbox and returns it as it now is (it must exist). */
export async function updateMailbox(
  db: Queryable,
  id: number,
  changes: Partial<Omit<MailboxRow, 'id'>>,
): Promise<MailboxRow> {
  return db
    .updateTable('mailboxes')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A password the owner chose: the mailbox no longer has a generated one (migration 055). */
export async function setMailboxPasswordHash(db: Queryable, id: number, passwordHash: string): Promise<void> {
  await db
    .updateTable('mailboxes')
    .set({ password_hash: passwordHash, password_generated: 0 })
    .where('id', '=', id)
    .execute();
}

/** Deletes the mailboxes `ids` (their mail must be gone first); returns how many went. */
export async function deleteMailboxesByIds(db: Queryable, ids: number[]): Promise<number> {
  const result = await db.deleteFrom('mailboxes').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteMailboxesOnDomain(db: Queryable, domainId: number): Promise<void> {
  await db.deleteFrom('mailboxes').where('domain_id', '=', domainId).execute();
}

export async function deleteMailboxesOfOwner(db: Queryable, ownerId: number): Promise<void> {
  await db.deleteFrom('mailboxes').where('owner_id', '=', ownerId).execute();
}

// ---- mailbox accounts (kind = 'account': people log in to them) ----

/** What narrows a list of mailbox accounts; `now` decides what counts as expired. */
export interface AccountFilter {
  enabled?: boolean;
  domainId?: number;
  expired?: boolean;
  /** text within the address or the note, without case */
  content?: string;
}

/** The accounts within `scope` that match `filter` at `now`. */
function filteredAccounts(db: Queryable, scope: OwnerScope, filter: AccountFilter, now: number) {
  let query = accountsInScope(db, scope);
  if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled ? 1 : 0);
  if (filter.domainId !== undefined) query = query.where('domain_id', '=', filter.domainId);
  if (filter.expired === true) query = query.where('expires_at', '<=', now);
  if (filter.expired === false) {
    query = query.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  }
  const content = filter.content?.trim();
  if (content) {
    const pattern = likePattern(content);
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`lower(${eb.ref('address')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${eb.ref('note')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return query;
}

function accountsInScope(db: Queryable, scope: OwnerScope) {
  const query = db.selectFrom('mailboxes').where('kind', '=', 'account');
  return scope.kind === 'owner' ? query.where('owner_id', '=', scope.ownerId) : query;
}

/** One page of the matching accounts, newest first. */
export async function listAccountsPage(
  db: Queryable,
  scope: OwnerScope,
  filter: AccountFilter,
  now: number,
  page: { limit: number; offset: number },
): Promise<MailboxRow[]> {
  return filteredAccounts(db, scope, filter, now)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAccounts(
  db: Queryable,
  scope: OwnerScope,
  filter: AccountFilter,
  now: number,
): Promise<number> {
  const { count } = await filteredAccounts(db, scope, filter, now)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Every matching account, oldest first (the CSV export). */
export async function listAllAccounts(
  db: Queryable,
  scope: OwnerScope,
  filter: AccountFilter,
  now: number,
): Promise<MailboxRow[]> {
  return filteredAccounts(db, scope, filter, now).selectAll().orderBy('id').execute();
}

/** The account `id` if it lies within `scope`. */
export async function findAccountInScope(
  db: Queryable,
  scope: OwnerScope,
  id: number,
): Promise<MailboxRow | undefined> {
  return accountsInScope(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
}

/** How many of `ids` (distinct) are accounts within `scope`. */
export async function countAccountsInScope(db: Queryable, scope: OwnerScope, ids: number[]): Promise<number> {
  let query = db
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('kind', '=', 'account')
    .where('id', 'in', ids);
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  const { count } = await query.executeTakeFirstOrThrow();
  return Number(count);
}

/** The account people log in to with this address, or undefined. */
export async function findAccountByAddress(db: Queryable, address: string): Promise<MailboxRow | undefined> {
  return db
    .selectFrom('mailboxes')
    .selectAll()
    .where('address', '=', address)
    .where('kind', '=', 'account')
    .executeTakeFirst();
}

/** Accounts the system account owns (what its `max_mailboxes` limits). */
export async function countAccountsOfOwner(db: Queryable, ownerId: number): Promise<number> {
  const { count } = await db
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('owner_id', '=', ownerId)
    .where('kind', '=', 'account')
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** What a batch edit sets on every account; `extend` adds time to the expiry. */
export interface AccountsChange {
  enabled?: number;
  quota_bytes?: number;
  expires_at?: number | null;
  /**
   * `by` milliseconds more: a never-expiring account stays so, an expired one gets them from `now`
   * rather than from the past.
   */
  extend?: { by: number; now: number };
}

/** Applies one change to the accounts `ids`; returns how many rows it touched. */
export async function updateAccounts(db: Queryable, ids: number[], change: AccountsChange): Promise<number> {
  let update = db.updateTable('mailboxes').where('kind', '=', 'account').where('id', 'in', ids);
  if (change.enabled !== undefined) update = update.set({ enabled: change.enabled });
  if (change.quota_bytes !== undefined) update = update.set({ quota_bytes: change.quota_bytes });
  if (change.expires_at !== undefined) update = update.set({ expires_at: change.expires_at });
  const extend = change.extend;
  if (extend) {
    update = update.set((eb) => ({
      expires_at: eb
        .case()
        .when('expires_at', 'is', null)
        .then(sql<number | null>`null`)
        .when('expires_at', '<', extend.now)
        .then(sql<number>`${extend.now + extend.by}`)
        .else(sql<number>`${eb.ref('expires_at')} + ${extend.by}`)
        .end(),
    }));
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---- receiving and reading mail ----

/** A mailbox as delivery sees it: where it is, whose it is, and its quota. */
export type RecipientMailbox = Pick<MailboxRow, 'id' | 'address' | 'owner_id' | 'quota_bytes' | 'used_bytes'>;

/**
 * The mailboxes among `addresses` that receive mail at `now`: enabled, not expired, on an active
 * domain (a pending domain, its ownership not proven, receives nothing).
 */
export async function findReceivingMailboxes(
  db: Queryable,
  addresses: string[],
  now: number,
): Promise<RecipientMailbox[]> {
  // Every recipient of every message, at RCPT and at delivery: compiled once per count of addresses.
  const { rows } = await runCompiled(
    db,
    'findReceivingMailboxes',
    String(addresses.length),
    [now, ...addresses],
    ([at, ...list]) =>
      db
        .selectFrom('mailboxes')
        .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
        .select([
          'mailboxes.id',
          'mailboxes.address',
          'mailboxes.owner_id',
          'mailboxes.quota_bytes',
          'mailboxes.used_bytes',
        ])
        .where('mailboxes.address', 'in', list)
        .where('mailboxes.enabled', '=', 1)
        .where('domains.status', '=', 'active')
        .where((eb) => eb.or([eb('mailboxes.expires_at', 'is', null), eb('mailboxes.expires_at', '>', at)])),
  );
  return rows;
}

/**
 * Counts `bytes` more against the mailbox's quota, only if they fit (or it has none): the check and
 * the accounting in one statement, so concurrent deliveries cannot both squeeze under the limit.
 * Returns whether they fitted.
 */
export async function addMailboxUsageWithinQuota(db: Queryable, id: number, bytes: number): Promise<boolean> {
  // Every stored message: compiled once (compiled-query.ts).
  const { numAffectedRows } = await runCompiled(
    db,
    'addMailboxUsageWithinQuota',
    '',
    [bytes, id, bytes],
    ([added, mailbox, checked]) =>
      db
        .updateTable('mailboxes')
        .set((eb) => ({ used_bytes: eb('used_bytes', '+', added) }))
        .where('id', '=', mailbox)
        .where((eb) =>
          eb.or([
            eb('quota_bytes', '<=', 0),
            eb(eb('used_bytes', '+', checked), '<=', eb.ref('quota_bytes')),
          ]),
        ),
  );
  return Number(numAffectedRows) === 1;
}

/** Gives `bytes` of deleted mail back to the mailbox's quota (never below zero). */
export async function releaseMailboxUsage(db: Queryable, id: number, bytes: number): Promise<void> {
  await db
    .updateTable('mailboxes')
    .set({ used_bytes: sql<number>`case when used_bytes > ${bytes} then used_bytes - ${bytes} else 0 end` })
    .where('id', '=', id)
    .execute();
}

/** Mailboxes within `scope` with their unread messages counted (null or 0 when none), by address. */
export async function countUnreadByMailbox(
  db: Queryable,
  scope: MailboxScope,
): Promise<{ address: string; count: number | null }[]> {
  let query = db.selectFrom('mailboxes');
  if (scope.kind === 'mailbox') query = query.where('mailboxes.id', '=', scope.mailboxId);
  if (scope.kind === 'owner') query = query.where('mailboxes.owner_id', '=', scope.ownerId);
  return query
    .select((eb) => ['mailboxes.address', unreadMessageCount(eb).as('count')])
    .orderBy('mailboxes.address')
    .execute();
}

/** The id of the mailbox at `address` if it lies within `scope`. */
export async function findMailboxIdByAddressInScope(
  db: Queryable,
  scope: OwnerScope,
  address: string,
): Promise<number | undefined> {
  let query = db.selectFrom('mailboxes').select('id').where('address', '=', address);
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  const row = await query.executeTakeFirst();
  return row?.id;
}

// ---- addresses (kind = 'address': read by their owner) ----

/** The address `id` if it lies within `scope`. */
export async function findAddressInScope(
  db: Queryable,
  scope: OwnerScope,
  id: number,
): Promise<MailboxRow | undefined> {
  let query = db.selectFrom('mailboxes').selectAll().where('id', '=', id).where('kind', '=', 'address');
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  return query.executeTakeFirst();
}

/** The addresses within `scope` with their unread messages counted (null or 0 when none), newest first. */
export async function listAddressesWithUnread(
  db: Queryable,
  scope: OwnerScope,
): Promise<(Pick<MailboxRow, 'id' | 'address' | 'created_at' | 'expires_at'> & { unread: number | null })[]> {
  let query = db
    .selectFrom('mailboxes')
    .select(['mailboxes.id', 'mailboxes.address', 'mailboxes.created_at', 'mailboxes.expires_at'])
    .select((eb) => unreadMessageCount(eb).as('unread'))
    .where('mailboxes.kind', '=', 'address')
    .orderBy('mailboxes.id', 'desc');
  if (scope.kind === 'owner') query = query.where('mailboxes.owner_id', '=', scope.ownerId);
  return query.execute();
}

// ---- retention ----

/** Up to `limit` temporary mailboxes (accounts without a password) whose time was up at `now`. */
export async function findExpiredTemporaryMailboxIds(
  db: Queryable,
  now: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('mailboxes')
    .select('id')
    .where('kind', '=', 'account')
    .where('password_hash', 'is', null)
    .where('expires_at', '<', now)
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Whether `address` belonged to a mailbox that expired or was deleted recently. */
export async function isRetiredAddress(db: Queryable, address: string): Promise<boolean> {
  const row = await db
    .selectFrom('retired_addresses')
    .select('address')
    .where('address', '=', address)
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets the former addresses retired before `cutoff`. */
export async function deleteRetiredAddressesBefore(db: Queryable, cutoff: number): Promise<void> {
  await db.deleteFrom('retired_addresses').where('retired_at', '<', cutoff).execute();
}

// ---- dashboard figures ----

/** The mailboxes within `scope` summed per kind: count, bytes used, quotas, and usable at `now`. */
export async function summarizeMailboxesByKind(db: Queryable, scope: OwnerScope, now: number) {
  let query = db.selectFrom('mailboxes');
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  return query
    .select([
      'kind',
      (eb) => eb.fn.countAll<number>().as('count'),
      (eb) => eb.fn.sum<number>('used_bytes').as('used'),
      (eb) =>
        eb.fn
          .sum<number>(eb.case().when('quota_bytes', '>', 0).then(eb.ref('quota_bytes')).else(0).end())
          .as('quota'),
      (eb) =>
        eb.fn
          .sum<number>(eb.case().when('quota_bytes', '>', 0).then(eb.ref('used_bytes')).else(0).end())
          .as('usedWithQuota'),
      (eb) =>
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(
                eb.and([
                  eb('enabled', '=', 1),
                  eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
                ]),
              )
              .then(1)
              .else(0)
              .end(),
          )
          .as('usable'),
    ])
    .groupBy('kind')
    .execute();
}

// ---- subqueries for the other repositories' statements ----

/** The ids of the mailboxes on a domain (an uncorrelated subquery). */
export function mailboxIdsOnDomain(db: Queryable, domainId: number) {
  return db.selectFrom('mailboxes').select('id').where('domain_id', '=', domainId);
}
