import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { timeType } from './column-types.js';

/**
 * Names owned before they are used, and limits that cannot be turned against the service:
 *
 * - `domains.status`: `pending` until the owner proves control with a DNS TXT record
 *   (`_youju.<domain>` = `youju-verify=<verification_token>`), then `active`. Domains that existed
 *   before are active.
 * - `login_history (identifier, ip)`: the login throttle asks whether a source has logged into an
 *   account before (the owner's usual network is never locked out by strangers' failures).
 * - `retired_addresses`: addresses whose mailbox expired or was deleted recently. Mail still sent to
 *   them is refused like any unknown address, but does not count as address probing.
 * - The sending limits are now named `sendPerHour` / `sendPerDay`; an operator's stored
 *   values carry over.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  await db.schema
    .alterTable('domains')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .execute();
  await db.schema.alterTable('domains').addColumn('verification_token', 'text').execute();
  await db.schema
    .createIndex('login_history_identifier_ip')
    .on('login_history')
    .columns(['identifier', 'ip'])
    .execute();
  await db.schema
    .createTable('retired_addresses')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('retired_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('retired_addresses_retired_at')
    .on('retired_addresses')
    .column('retired_at')
    .execute();
  // Every way a mailbox goes (expiry purge, deletion, a domain or account deleted with its
  // mailboxes) retires its address, so the trigger is the one place that keeps the table right.
  if (engine === 'postgres') {
    await sql`
      create function retire_mailbox_address() returns trigger language plpgsql as $$
      begin
        insert into retired_addresses (address, retired_at)
        values (old.address, (extract(epoch from clock_timestamp()) * 1000)::bigint)
        on conflict (address) do update set retired_at = excluded.retired_at;
        return old;
      end $$`.execute(db);
    await sql`
      create trigger mailboxes_retire after delete on mailboxes
      for each row execute function retire_mailbox_address()`.execute(db);
  } else {
    await sql`
      create trigger mailboxes_retire after delete on mailboxes begin
        insert or replace into retired_addresses (address, retired_at)
        values (old.address, cast(unixepoch('subsec') * 1000 as integer));
      end`.execute(db);
  }
  await sql`update settings set key = 'sendPerHour' where key = 'sendLimitPerHour'`.execute(db);
  await sql`update settings set key = 'sendPerDay' where key = 'sendLimitPerDay'`.execute(db);
}
