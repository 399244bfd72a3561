import type { Insertable } from 'kysely';
import type { DomainDkimKeyRow, DomainDkimKeyTable } from '../schema.js';
import type { Queryable } from './queryable.js';

type DkimAlgorithm = DomainDkimKeyRow['algorithm'];

/** Every key of the domain, newest first. */
export async function listDkimKeysOfDomain(db: Queryable, domainId: number): Promise<DomainDkimKeyRow[]> {
  return db
    .selectFrom('domain_dkim_keys')
    .selectAll()
    .where('domain_id', '=', domainId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The selectors the domain has used, published or not. */
export async function listDkimSelectorsOfDomain(db: Queryable, domainId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('domain_dkim_keys')
    .select('selector')
    .where('domain_id', '=', domainId)
    .execute();
  return rows.map((row) => row.selector);
}

/** Whether the domain has a key of this algorithm (active or retired). */
export async function hasDkimKeyOfAlgorithm(
  db: Queryable,
  domainId: number,
  algorithm: DkimAlgorithm,
): Promise<boolean> {
  const row = await db
    .selectFrom('domain_dkim_keys')
    .select('id')
    .where('domain_id', '=', domainId)
    .where('algorithm', '=', algorithm)
    .executeTakeFirst();
  return row !== undefined;
}

/** The domain's active keys (one per algorithm), RSA first. */
export async function listActiveDkimKeysOfDomain(
  db: Queryable,
  domainId: number,
): Promise<DomainDkimKeyRow[]> {
  return db
    .selectFrom('domain_dkim_keys')
    .selectAll()
    .where('domain_id', '=', domainId)
    .where('active', '=', 1)
    .orderBy('algorithm', 'desc')
    .execute();
}

/** Retires the domain's keys of one algorithm: they stay published but sign nothing. */
export async function retireDkimKeys(
  db: Queryable,
  domainId: number,
  algorithm: DkimAlgorithm,
): Promise<void> {
  await db
    .updateTable('domain_dkim_keys')
    .set({ active: 0 })
    .where('domain_id', '=', domainId)
    .where('algorithm', '=', algorithm)
    .execute();
}

export async function insertDkimKey(db: Queryable, values: Insertable<DomainDkimKeyTable>): Promise<void> {
  await db.insertInto('domain_dkim_keys').values(values).execute();
}

/** Deletes the domain's retired keys, or only the retired one with `selector`. */
export async function deleteRetiredDkimKeys(
  db: Queryable,
  domainId: number,
  selector?: string,
): Promise<void> {
  let query = db.deleteFrom('domain_dkim_keys').where('domain_id', '=', domainId).where('active', '=', 0);
  if (selector !== undefined) query = query.where('selector', '=', selector);
  await query.execute();
}
