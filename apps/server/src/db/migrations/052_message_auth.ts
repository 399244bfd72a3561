import type { Kysely } from 'kysely';

/**
 * `messages.auth`: what SPF, DKIM and DMARC said about a message received over SMTP (JSON, see
 * modules/mail/inbound-auth.ts `MessageAuth`), or null for mail not checked (stored before, or
 * delivered locally). Its full verdict is also the `Authentication-Results` header stored in front
 * of the raw message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('auth', 'text').execute();
}
