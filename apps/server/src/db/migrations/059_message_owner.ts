import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';

/**
 * The owner of each message's mailbox, on the message itself, with an index that lists an owner's
 * folder newest first. getInbox of a system user lists all of their addresses at once: with the
 * owner only on `mailboxes`, SQLite read every index entry of the owner's folder across their
 * mailboxes (12,000 for 200 addresses) and sorted them to find the newest 20: 0.8 ms of a request
 * whose other work takes about as much. From this index page 1 reads 20 entries (0.03 ms).
 *
 * `owner_id` is written by the one function that inserts messages (`insertMessages`, a lookup of
 * the mailbox in the same statement). What writes rows another way (a restore of an older backup
 * runs this migration after loading them; tests and benchmarks that fill the table directly) is
 * covered by a trigger that fills a missing owner, and the column follows a mailbox that changes
 * owner or a message that changes mailbox (neither happens in Youju today). The index carries
 * read and starred, so the unread and starred filters are answered from it alone too.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await upPostgres(db);
  else await upSqlite(db);
}

const INDEX_COLUMNS = ['owner_id', 'folder', 'received_at', 'id', 'read', 'starred'];

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  // Kysely runs SQLite migrations outside a transaction: the column, its contents, the index and
  // the triggers appear whole or not at all.
  await db.transaction().execute(async (trx) => {
    await sql`alter table messages add column owner_id integer`.execute(trx);
    await sql`update messages set owner_id = (select owner_id from mailboxes where mailboxes.id = messages.mailbox_id)`.execute(
      trx,
    );
    await trx.schema
      .createIndex('messages_owner_folder_received')
      .on('messages')
      .columns(INDEX_COLUMNS)
      .execute();
    // SQLite cannot change NEW in a trigger: the row is updated after its insert, only when the
    // inserting statement left the owner out.
    await sql`create trigger messages_owner_default after insert on messages when new.owner_id is null
      begin
        update messages set owner_id = (select owner_id from mailboxes where id = new.mailbox_id) where id = new.id;
      end`.execute(trx);
    await sql`create trigger messages_owner_moved after update of mailbox_id on messages
      begin
        update messages set owner_id = (select owner_id from mailboxes where id = new.mailbox_id) where id = new.id;
      end`.execute(trx);
    await sql`create trigger mailboxes_owner_changed after update of owner_id on mailboxes
      when old.owner_id is not new.owner_id
      begin
        update messages set owner_id = new.owner_id where mailbox_id = new.id;
      end`.execute(trx);
  });
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages add column owner_id integer`.execute(db);
  await sql`update messages set owner_id = mailboxes.owner_id from mailboxes where mailboxes.id = messages.mailbox_id`.execute(
    db,
  );
  await db.schema
    .createIndex('messages_owner_folder_received')
    .on('messages')
    .columns(INDEX_COLUMNS)
    .execute();
  await sql`create or replace function youju_message_owner() returns trigger language plpgsql as $$
    begin
      new.owner_id := (select owner_id from mailboxes where id = new.mailbox_id);
      return new;
    end $$`.execute(db);
  await sql`create trigger messages_owner_default before insert on messages
    for each row when (new.owner_id is null) execute function youju_message_owner()`.execute(db);
  await sql`create trigger messages_owner_moved before update of mailbox_id on messages
    for each row execute function youju_message_owner()`.execute(db);
  await sql`create or replace function youju_mailbox_owner_changed() returns trigger language plpgsql as $$
    begin
      update messages set owner_id = new.owner_id where mailbox_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger mailboxes_owner_changed after update of owner_id on mailboxes
    for each row when (old.owner_id is distinct from new.owner_id) execute function youju_mailbox_owner_changed()`.execute(
    db,
  );
}
