import type { Kysely } from 'kysely';

/**
 * `mailboxes.password_generated`: 1 while the mailbox's password is the credential the server
 * generated at a one-click `regEmail` (shown to the visitor once, stored only as its hash) and
 * nobody has set a password of their own since. Such a mailbox may set its first password from
 * its own session without the old one (auth-service changePassword, docs/api.md). 0 for every
 * other mailbox, including all that existed before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mailboxes')
    .addColumn('password_generated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
