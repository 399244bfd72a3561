import type { Kysely } from 'kysely';

/**
 * `messages.code`: the one-time code a message carries (a verification, login or OTP code), found
 * when it is stored (modules/mail/verification-code.ts), or null. Mail stored before has none: the
 * code matters while a message is fresh, and finding it again would mean parsing every message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('code', 'text').execute();
}
