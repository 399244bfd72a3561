// Writing mail straight into a migrated database, as the inbox benchmarks do (sending it over SMTP
// would measure SMTP): one raw message shared by every row, message rows in bulk, and SQLite's
// search index brought up to date. A message row is
// [mailboxId, fromName, fromAddress, subject, snippet, textBody, receivedAt, read, starred].

const RAW = Buffer.from('Subject: bench\r\n\r\nbench\r\n');
/** The size every benchmark message claims. */
const SIZE = 1200;

/** SQLite (better-sqlite3): the shared raw message; its id. */
export function sharedRawSqlite(db, now) {
  const raw = db
    .prepare('insert into raw_messages (size, sha256, created_at) values (?, ?, ?)')
    .run(SIZE, 'bench', now).lastInsertRowid;
  db.prepare('insert into message_raw_chunks (raw_id, seq, data) values (?, 0, ?)').run(raw, RAW);
  return raw;
}

/** SQLite: a statement that inserts one message row of `raw` (see the top of this file). */
export function sqliteMessageInsert(db, raw) {
  // The UID: the next of the mailbox's inbox (migration 050), read from the (mailbox_id, folder,
  // uid) index; the server creates the folder row later from the highest one (folder-repo.ts).
  // The owner of the mailbox (migration 059), as the server writes it; without it a trigger would
  // fill it in with an update of each row.
  const owned = db.prepare("select 1 from pragma_table_info('messages') where name = 'owner_id'").get();
  const insert = db.prepare(`insert into messages (mailbox_id, raw_id, from_name, from_address, subject,
      snippet, text_body, html_body, received_at, size, read, starred, spam, has_attachments, uid
      ${owned ? ', owner_id' : ''})
    values (?, ${Number(raw)}, ?, ?, ?, ?, ?, null, ?, ${SIZE}, ?, ?, 0, 0,
      (select coalesce(max(uid), 0) + 1 from messages where mailbox_id = ? and folder = 'inbox')
      ${owned ? ', (select owner_id from mailboxes where id = ?)' : ''})`);
  return owned ? (row) => insert.run(...row, row[0], row[0]) : (row) => insert.run(...row, row[0]);
}

/** The built server's pairs of characters (migration 056), when the build has them. */
const bigrams = await import(
  new URL('../../apps/server/dist/db/search-bigrams.js', import.meta.url).href
).catch(() => null);

/**
 * SQLite: adds the new messages to the search indexes, as the server does shortly after storing
 * them (db/search-index.ts), so that a measurement does not include the catching up. Before
 * migration 046 a trigger indexed every message as it was stored; before migration 056 there was
 * no index of pairs of characters.
 */
export function indexForSearch(db) {
  const deferred = db.prepare("select 1 from sqlite_master where name = 'search_index_cursor'").get();
  if (!deferred) return;
  const pairs = db.prepare("select 1 from sqlite_master where name = 'messages_bigrams'").get();
  if (pairs && !bigrams) throw new Error('messages_bigrams needs the built server (npm run build)');
  const columns = 'subject, from_name, from_address, text_body';
  db.transaction(() => {
    if (pairs) {
      const insert = db.prepare('insert into messages_bigrams (rowid, grams) values (?, ?)');
      const batch = db.prepare(`select id, ${columns} from messages
        where id > max(?, (select last_message_id from search_index_cursor)) order by id limit 10000`);
      for (let after = 0; ; ) {
        const rows = batch.all(after);
        if (rows.length === 0) break;
        for (const row of rows) {
          insert.run(
            row.id,
            bigrams.bigramDocument([row.subject, row.from_name, row.from_address, row.text_body]),
          );
        }
        after = rows.at(-1).id;
      }
    }
    db.prepare(`insert into messages_search (rowid, ${columns}) select id, ${columns} from messages
      where id > (select last_message_id from search_index_cursor)`).run();
    db.prepare('update search_index_cursor set last_message_id = (select max(id) from messages)').run();
  })();
}

/** PostgreSQL (a connected pg.Client): the shared raw message; its id. */
export async function sharedRawPostgres(client, now) {
  const {
    rows: [{ id: raw }],
  } = await client.query(
    `insert into raw_messages (size, sha256, created_at) values (${SIZE}, 'bench', $1) returning id`,
    [now],
  );
  await client.query('insert into message_raw_chunks (raw_id, seq, data) values ($1, 0, $2)', [raw, RAW]);
  return raw;
}

/** PostgreSQL: inserts message rows of `raw` in one statement (see the top of this file). */
export async function insertPostgresMessages(client, raw, rows) {
  const column = (index) => rows.map((row) => row[index]);
  await client.query(
    `insert into messages (mailbox_id, raw_id, from_name, from_address, subject, snippet, text_body,
      html_body, received_at, size, read, starred, spam, has_attachments, uid)
    select mailbox_id, $1, from_name, from_address, subject, snippet, text_body, null, received_at,
      ${SIZE}, read, starred, 0, 0,
      -- the next UIDs of each mailbox's inbox (migration 050); the server creates the folder row
      -- later from the highest one (folder-repo.ts)
      coalesce((select max(uid) from messages m where m.mailbox_id = t.mailbox_id and m.folder = 'inbox'), 0)
        + row_number() over (partition by mailbox_id)
    from unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[],
      $9::int[], $10::int[]) as t(mailbox_id, from_name, from_address, subject, snippet, text_body,
      received_at, read, starred)`,
    [raw, ...Array.from({ length: 9 }, (_, index) => column(index))],
  );
}
