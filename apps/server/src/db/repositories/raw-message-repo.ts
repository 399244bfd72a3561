import type { Insertable } from 'kysely';
import { runCompiled } from '../compiled-query.js';
import type { MessageRawChunkTable, RawMessageTable } from '../schema.js';
import { messagesOfRaw } from './message-repo.js';
import type { Queryable } from './queryable.js';

/** The bytes of one received DATA: the row first, then its chunks (`insertRawChunk`). */
export async function insertRawMessage(
  db: Queryable,
  row: Pick<Insertable<RawMessageTable>, 'size' | 'sha256' | 'created_at'>,
): Promise<number> {
  // Every stored message: compiled once (compiled-query.ts).
  const { rows } = await runCompiled(
    db,
    'insertRawMessage',
    '',
    [row.size, row.sha256, row.created_at],
    ([size, sha256, created_at]) =>
      db.insertInto('raw_messages').values({ size, sha256, created_at }).returning('id'),
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into raw_messages returned no id');
  return id;
}

export async function insertRawChunk(db: Queryable, chunk: Insertable<MessageRawChunkTable>): Promise<void> {
  await runCompiled(db, 'insertRawChunk', '', [chunk.raw_id, chunk.seq, chunk.data], ([raw_id, seq, data]) =>
    db.insertInto('message_raw_chunks').values({ raw_id, seq, data }),
  );
}

/** The checksum of a raw message written in a stream, known only once its last chunk is in. */
export async function setRawMessageSha256(db: Queryable, rawId: number, sha256: string): Promise<void> {
  await db.updateTable('raw_messages').set({ sha256 }).where('id', '=', rawId).execute();
}

/** Chunk `seq` of a raw message, or undefined past its end. */
export async function findRawChunk(db: Queryable, rawId: number, seq: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('message_raw_chunks')
    .select('data')
    .where('raw_id', '=', rawId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.data;
}

/**
 * Removes raw messages no message refers to any more (after deletions and cascades), at most 1000:
 * among `rawIds` when given, else any. Returns how many went.
 */
export async function deleteOrphanRawMessages(db: Queryable, rawIds?: number[]): Promise<number> {
  let query = db
    .selectFrom('raw_messages')
    .select('raw_messages.id')
    .where((eb) => eb.not(eb.exists(messagesOfRaw(eb))));
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
