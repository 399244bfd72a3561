import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Queryable } from '../../db/repositories/queryable.js';
import { findRawChunk, insertRawChunk, insertRawMessage } from '../../db/repositories/raw-message-repo.js';

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
  trx: Queryable,
  source: string | Buffer,
  size: number,
  sha256: string,
): Promise<number> {
  const rawId = await insertRawMessage(trx, { size, sha256, created_at: Date.now() });
  if (typeof source !== 'string') {
    for (let seq = 0; seq * RAW_CHUNK_BYTES < size; seq++) {
      const data = source.subarray(seq * RAW_CHUNK_BYTES, Math.min(size, (seq + 1) * RAW_CHUNK_BYTES));
      await insertRawChunk(trx, { raw_id: rawId, seq, data });
    }
    return rawId;
  }
  const handle = await open(source, 'r');
  try {
    let position = 0;
    let seq = 0;
    while (position < size) {
      const buffer = Buffer.allocUnsafe(Math.min(RAW_CHUNK_BYTES, size - position));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) throw new Error('spool file shorter than its recorded size');
      await insertRawChunk(trx, { raw_id: rawId, seq, data: buffer.subarray(0, bytesRead) });
      position += bytesRead;
      seq++;
    }
  } finally {
    await handle.close();
  }
  return rawId;
}

/** Streams a raw message back out of the database, one chunk per query. */
export function readRaw(db: Queryable, rawId: number): Readable {
  async function* chunks() {
    for (let seq = 0; ; seq++) {
      const data = await findRawChunk(db, rawId, seq);
      if (!data) return;
      yield Buffer.from(data);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
