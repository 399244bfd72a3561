import type { Insertable } from 'kysely';
import type { LoginHistoryRow, LoginHistoryTable } from '../schema.js';
import type { Queryable } from './queryable.js';

type SubjectKind = NonNullable<LoginHistoryRow['subject_kind']>;

export async function insertLoginAttempt(
  db: Queryable,
  values: Insertable<LoginHistoryTable>,
): Promise<void> {
  await db.insertInto('login_history').values(values).execute();
}

/** Whether `identifier` of this kind has logged in successfully from `ip` before. */
export async function hasSucceededFrom(
  db: Queryable,
  kind: SubjectKind,
  identifier: string,
  ip: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('login_history')
    .select('id')
    .where('identifier', '=', identifier)
    .where('ip', '=', ip)
    .where('subject_kind', '=', kind)
    .where('success', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** One page of a subject's login attempts, newest first. */
export async function listLoginHistoryOfSubject(
  db: Queryable,
  kind: SubjectKind,
  subjectId: number,
  page: { limit: number; offset: number },
): Promise<LoginHistoryRow[]> {
  return db
    .selectFrom('login_history')
    .where('subject_kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countLoginHistoryOfSubject(
  db: Queryable,
  kind: SubjectKind,
  subjectId: number,
): Promise<number> {
  const { count } = await db
    .selectFrom('login_history')
    .where('subject_kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function deleteLoginHistoryBefore(db: Queryable, before: number): Promise<void> {
  await db.deleteFrom('login_history').where('created_at', '<', before).execute();
}
