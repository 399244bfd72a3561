import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Size of one row of `message_raw_chunks`: large enough to keep rows few, small enough to stream. */
export const RAW_CHUNK_BYTES = 256 * 1024;

/**
 * Copies a spooled message (held in memory, or a file read one chunk at a time) into
 * `raw_messages` / `message_raw_chunks` inside the caller's transaction and returns the raw id.
 * The commit of that transaction is what makes the message durable (SQLite synchronous=FULL,
 * PostgreSQL synchronous_commit=on), so the chunks and the metadata rows appear together or not
 * at all.
 */
export async function insertRaw(
  trx: Transaction<Database>,
  source: string | Buffer,
  size: number,
  sha256: string,
): Promise<number> {
  const raw = await trx
    .insertInto('raw_messages')
    .values({ size, sha256, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (typeof source !== 'string') {
    for (let seq = 0; seq * RAW_CHUNK_BYTES < size; seq++) {
      const data = source.subarray(seq * RAW_CHUNK_BYTES, Math.min(size, (seq + 1) * RAW_CHUNK_BYTES));
      await trx.insertInto('message_raw_chunks').values({ raw_id: raw.id, seq, data }).execute();
    }
    return raw.id;
  }
  const handle = await open(source, 'r');
  try {
    let position = 0;
    let seq = 0;
    while (position < size) {
      const buffer = Buffer.allocUnsafe(Math.min(RAW_CHUNK_BYTES, size - position));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) throw new Error('spool file shorter than its recorded size');
      await trx
        .insertInto('message_raw_chunks')
        .values({ raw_id: raw.id, seq, data: buffer.subarray(0, bytesRead) })
        .execute();
      position += bytesRead;
      seq++;
    }
  } finally {
    await handle.close();
  }
  return raw.id;
}

/** Streams a raw message back out of the database, one chunk per query. */
export function readRaw(db: Kysely<Database>, rawId: number): Readable {
  async function* chunks() {
    for (let seq = 0; ; seq++) {
      const row = await db
        .selectFrom('message_raw_chunks')
        .select('data')
        .where('raw_id', '=', rawId)
        .where('seq', '=', seq)
        .executeTakeFirst();
      if (!row) return;
      yield Buffer.from(row.data);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Removes raw messages no message refers to any more (after deletions and cascades). */
export async function deleteOrphanRaw(db: Kysely<Database> | Transaction<Database>, rawIds?: number[]) {
  let query = db
    .selectFrom('raw_messages')
    .select('raw_messages.id')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('messages').select('messages.id').whereRef('messages.raw_id', '=', 'raw_messages.id'),
        ),
      ),
    );
  if (rawIds) {
    if (rawIds.length === 0) return 0;
    query = query.where('raw_messages.id', 'in', rawIds);
  }
  const orphans = (await query.limit(1000).execute()).map((row) => row.id);
  if (orphans.length === 0) return 0;
  await db.deleteFrom('message_raw_chunks').where('raw_id', 'in', orphans).execute();
  await db.deleteFrom('raw_messages').where('id', 'in', orphans).execute();
  return orphans.length;
}
