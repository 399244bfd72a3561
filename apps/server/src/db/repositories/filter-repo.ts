import type { Insertable } from 'kysely';
import { runCompiled } from '../compiled-query.js';
import type { MailFilterRow, MailFilterTable, SystemAccountRow } from '../schema.js';
import type { OwnerScope } from './domain-repo.js';
import type { Queryable } from './queryable.js';

export async function findFilterById(db: Queryable, id: number): Promise<MailFilterRow | undefined> {
  return db.selectFrom('mail_filters').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The filters within `scope`, in the order they were added. */
export async function listFilters(db: Queryable, scope: OwnerScope): Promise<MailFilterRow[]> {
  let query = db.selectFrom('mail_filters').selectAll().orderBy('id');
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  return query.execute();
}

/** The owner's filters counted: all of them, and the regular-expression ones (null when none). */
export async function countFiltersOfOwner(
  db: Queryable,
  ownerId: number,
): Promise<{ all: number; patterns: number | null }> {
  const counts = await db
    .selectFrom('mail_filters')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn.sum<number>(eb.case().when('match', '=', 'regex').then(1).else(0).end()).as('patterns'),
    ])
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return { all: Number(counts.all), patterns: counts.patterns };
}

export async function insertFilter(
  db: Queryable,
  values: Insertable<MailFilterTable>,
): Promise<MailFilterRow> {
  return db.insertInto('mail_filters').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function deleteFilterById(db: Queryable, id: number): Promise<void> {
  await db.deleteFrom('mail_filters').where('id', '=', id).execute();
}

/**
 * The enabled filters that apply to mail of the owners `ownerIds`: their own and every
 * administrator's, with the role of the filter's owner, in the order they were added.
 */
export async function listEnabledFiltersForOwners(
  db: Queryable,
  ownerIds: number[],
): Promise<(MailFilterRow & Pick<SystemAccountRow, 'role'>)[]> {
  // Every stored message: compiled once per count of owners (compiled-query.ts).
  const { rows } = await runCompiled(
    db,
    'listEnabledFiltersForOwners',
    String(ownerIds.length),
    ownerIds,
    (ids) =>
      db
        .selectFrom('mail_filters')
        .innerJoin('system_accounts', 'system_accounts.id', 'mail_filters.owner_id')
        .selectAll('mail_filters')
        .select('system_accounts.role')
        .where('mail_filters.enabled', '=', 1)
        .where((eb) =>
          eb.or([eb('mail_filters.owner_id', 'in', ids), eb('system_accounts.role', '=', 'admin')]),
        )
        .orderBy('mail_filters.id'),
  );
  return rows;
}
