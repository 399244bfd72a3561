import type { Insertable } from 'kysely';
import type { SessionRow, SessionTable } from '../schema.js';
import { mailboxIdsOnDomain } from './mailbox-repo.js';
import type { Queryable } from './queryable.js';

type SubjectKind = SessionRow['subject_kind'];

export async function insertSession(db: Queryable, values: Insertable<SessionTable>): Promise<void> {
  await db.insertInto('sessions').values(values).execute();
}

/** The session of this token hash, if it is neither revoked nor expired at `now`. */
export async function findLiveSessionByTokenHash(
  db: Queryable,
  tokenHash: string,
  now: number,
): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Records a use of the session and moves its expiry. */
export async function touchSession(
  db: Queryable,
  id: number,
  seenAt: number,
  expiresAt: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: seenAt, expires_at: expiresAt })
    .where('id', '=', id)
    .execute();
}

/** The subject's sessions neither revoked nor expired at `now`, most recently used first (200 at most). */
export async function listLiveSessionsOfSubject(
  db: Queryable,
  kind: SubjectKind,
  subjectId: number,
  now: number,
): Promise<Pick<SessionRow, 'id' | 'ip' | 'user_agent' | 'created_at' | 'last_seen_at'>[]> {
  return db
    .selectFrom('sessions')
    .select(['id', 'ip', 'user_agent', 'created_at', 'last_seen_at'])
    .where('subject_kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
}

export async function revokeSession(db: Queryable, id: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).execute();
}

/** The update that revokes the subject's open sessions; callers narrow it further. */
function revokeOpenSessions(db: Queryable, kind: SubjectKind, subjectId: number, now: number) {
  return db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('subject_kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .where('revoked_at', 'is', null);
}

/** Revokes session `id` if it is the subject's and still open; returns whether it did. */
export async function revokeOpenSessionOfSubject(
  db: Queryable,
  id: number,
  kind: SubjectKind,
  subjectId: number,
  now: number,
): Promise<boolean> {
  const result = await revokeOpenSessions(db, kind, subjectId, now).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes the subject's open sessions but `keepId`; returns how many. */
export async function revokeOtherOpenSessionsOfSubject(
  db: Queryable,
  kind: SubjectKind,
  subjectId: number,
  keepId: number,
  now: number,
): Promise<number> {
  const result = await revokeOpenSessions(db, kind, subjectId, now)
    .where('id', '!=', keepId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Revokes every open session of one subject. */
export async function revokeOpenSessionsOfSubject(
  db: Queryable,
  kind: SubjectKind,
  subjectId: number,
  now: number,
): Promise<void> {
  await revokeOpenSessions(db, kind, subjectId, now).execute();
}

/** Revokes every open session of the mailboxes `mailboxIds`. */
export async function revokeOpenSessionsOfMailboxes(
  db: Queryable,
  mailboxIds: number[],
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('subject_kind', '=', 'mailbox')
    .where('subject_id', 'in', mailboxIds)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Marks every session of a system account being deleted as revoked at `now`, closed ones included. */
export async function revokeAllSessionsOfSystemAccount(
  db: Queryable,
  accountId: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('subject_kind', '=', 'system')
    .where('subject_id', '=', accountId)
    .execute();
}

/** Marks every session of the mailboxes on a domain being deleted as revoked at `now`, closed ones included. */
export async function revokeAllSessionsOfMailboxesOnDomain(
  db: Queryable,
  domainId: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('subject_kind', '=', 'mailbox')
    .where('subject_id', 'in', mailboxIdsOnDomain(db, domainId))
    .execute();
}

/** Marks every session of a mailbox being deleted as revoked at `now`, closed ones included. */
export async function revokeAllSessionsOfMailbox(
  db: Queryable,
  mailboxId: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('subject_kind', '=', 'mailbox')
    .where('subject_id', '=', mailboxId)
    .execute();
}
