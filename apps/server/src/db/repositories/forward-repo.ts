import { runCompiled } from '../compiled-query.js';
import type { MailForwardRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/** A mailbox's forwarding target, or undefined when none was ever set. */
export async function findForward(db: Queryable, mailboxId: number): Promise<MailForwardRow | undefined> {
  return db.selectFrom('mail_forwards').selectAll().where('mailbox_id', '=', mailboxId).executeTakeFirst();
}

/** An enabled forward of one of `mailboxIds`, with what deciding on a copy needs of its mailbox. */
export interface ActiveForward {
  mailboxId: number;
  forwardTo: string;
  keepCopy: boolean;
  address: string;
  /** how the mailbox came to be (`temporary`, `register`, …) */
  source: string;
}

/** The enabled forwards among the given mailboxes (the delivery of one message). */
export async function listActiveForwards(db: Queryable, mailboxIds: number[]): Promise<ActiveForward[]> {
  if (mailboxIds.length === 0) return [];
  // Every stored message: compiled once per count of mailboxes (compiled-query.ts).
  const { rows } = await runCompiled(db, 'listActiveForwards', String(mailboxIds.length), mailboxIds, (ids) =>
    db
      .selectFrom('mail_forwards')
      .innerJoin('mailboxes', 'mailboxes.id', 'mail_forwards.mailbox_id')
      .select([
        'mail_forwards.mailbox_id',
        'mail_forwards.forward_to',
        'mail_forwards.keep_copy',
        'mailboxes.address',
        'mailboxes.source',
      ])
      .where('mail_forwards.mailbox_id', 'in', ids)
      .where('mail_forwards.enabled', '=', 1),
  );
  return rows.map((row) => ({
    mailboxId: row.mailbox_id,
    forwardTo: row.forward_to,
    keepCopy: row.keep_copy !== 0,
    address: row.address,
    source: row.source,
  }));
}

/** Creates or replaces a mailbox's forwarding target (the skip record is cleared with it). */
export async function saveForward(
  db: Queryable,
  values: { mailboxId: number; forwardTo: string; keepCopy: boolean; enabled: boolean; now: number },
): Promise<void> {
  const row = {
    forward_to: values.forwardTo,
    keep_copy: values.keepCopy ? 1 : 0,
    enabled: values.enabled ? 1 : 0,
    updated_at: values.now,
    last_skipped_at: null,
    last_skip_reason: null,
  };
  await db
    .insertInto('mail_forwards')
    .values({ mailbox_id: values.mailboxId, created_at: values.now, ...row })
    .onConflict((conflict) => conflict.column('mailbox_id').doUpdateSet(row))
    .execute();
}

/** Removes a mailbox's forwarding target. */
export async function deleteForward(db: Queryable, mailboxId: number): Promise<void> {
  await db.deleteFrom('mail_forwards').where('mailbox_id', '=', mailboxId).execute();
}

/** Records why the latest copy of a mailbox's mail was not forwarded. */
export async function recordForwardSkipped(
  db: Queryable,
  mailboxId: number,
  at: number,
  reason: string,
): Promise<void> {
  await db
    .updateTable('mail_forwards')
    .set({ last_skipped_at: at, last_skip_reason: reason.slice(0, 500) })
    .where('mailbox_id', '=', mailboxId)
    .execute();
}
