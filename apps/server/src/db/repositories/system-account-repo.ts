import type { Engine } from '../database.js';
import type { NewSystemAccountRow, SystemAccountRow, SystemAccountUpdate } from '../schema.js';
import type { Queryable } from './queryable.js';

/** One system account, or undefined. */
export async function findSystemAccountById(
  db: Queryable,
  id: number,
): Promise<SystemAccountRow | undefined> {
  return db.selectFrom('system_accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One system account the caller knows exists (it holds its session or has just written it); throws otherwise. */
export async function getSystemAccountById(db: Queryable, id: number): Promise<SystemAccountRow> {
  return db.selectFrom('system_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** What a session of the account needs on every request: who it is and whether it may log in. */
export async function findSystemAccountIdentity(
  db: Queryable,
  id: number,
): Promise<Pick<SystemAccountRow, 'id' | 'username' | 'role' | 'enabled'> | undefined> {
  return db
    .selectFrom('system_accounts')
    .select(['id', 'username', 'role', 'enabled'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findSystemAccountByUsername(
  db: Queryable,
  username: string,
): Promise<SystemAccountRow | undefined> {
  return db.selectFrom('system_accounts').selectAll().where('username', '=', username).executeTakeFirst();
}

/** One page of the accounts, oldest first. */
export async function listSystemAccounts(
  db: Queryable,
  limit: number,
  offset: number,
): Promise<SystemAccountRow[]> {
  return db.selectFrom('system_accounts').selectAll().orderBy('id').limit(limit).offset(offset).execute();
}

export async function countSystemAccounts(db: Queryable): Promise<number> {
  const { count } = await db
    .selectFrom('system_accounts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Whether any administrator account exists (a fresh installation has none). */
export async function anyAdministratorExists(db: Queryable): Promise<boolean> {
  const row = await db
    .selectFrom('system_accounts')
    .select('id')
    .where('role', '=', 'admin')
    .executeTakeFirst();
  return row !== undefined;
}

/** Enabled administrators other than `exceptId`. */
export async function countEnabledAdministratorsExcept(db: Queryable, exceptId: number): Promise<number> {
  const { count } = await db
    .selectFrom('system_accounts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('role', '=', 'admin')
    .where('enabled', '=', 1)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * The account's `max_mailboxes`, or undefined when there is no such account. With `lock` on
 * PostgreSQL the row stays locked until the caller's transaction ends (SQLite runs one writing
 * transaction at a time already).
 */
export async function findMailboxLimitOfAccount(
  db: Queryable,
  id: number,
  lock?: { engine: Engine },
): Promise<Pick<SystemAccountRow, 'max_mailboxes'> | undefined> {
  let query = db.selectFrom('system_accounts').select('max_mailboxes').where('id', '=', id);
  if (lock?.engine === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertSystemAccount(
  db: Queryable,
  values: NewSystemAccountRow,
): Promise<SystemAccountRow> {
  return db.insertInto('system_accounts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateSystemAccount(
  db: Queryable,
  id: number,
  changes: SystemAccountUpdate,
): Promise<void> {
  await db.updateTable('system_accounts').set(changes).where('id', '=', id).execute();
}

export async function deleteSystemAccount(db: Queryable, id: number): Promise<void> {
  await db.deleteFrom('system_accounts').where('id', '=', id).execute();
}
