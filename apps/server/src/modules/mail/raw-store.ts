import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Queryable } from '../../db/repositories/queryable.js';
import {
  findRawChunk,
  insertRawChunk,
  insertRawMessage,
  setRawMessageSha256,
} from '../../db/repositories/raw-message-repo.js';

/** Size of one row of `message_raw_chunks`: large enough to keep rows few, small enough to stream. */
export const RAW_CHUNK_BYTES = 256 * 1024;

/**
 * Copies a spooled message (held in memory, or a file read one chunk at a time) into
 * `raw_messages` / `message_raw_chunks` inside the caller's transaction and returns the raw id.
 * `prefix` (header fields this server adds, such as `Authentication-Results`) is stored in front of
 * the message, and `size` and `sha256` then describe the stored bytes, prefix included.
 * The commit of that transaction is what makes the message durable (SQLite synchronous=FULL, or
 * the store worker's WAL sync after it; PostgreSQL synchronous_commit=on), so the chunks and the metadata rows appear together or not
 * at all.
 */
export async function insertRaw(
  trx: Queryable,
  source: string | Buffer,
  size: number,
  sha256: string,
  prefix: Buffer | null = null,
): Promise<number> {
  if (typeof source !== 'string') {
    const bytes = prefix ? Buffer.concat([prefix, source.subarray(0, size)]) : source;
    const total = prefix ? bytes.length : size;
    const digest = prefix ? createHash('sha256').update(bytes).digest('hex') : sha256;
    const rawId = await insertRawMessage(trx, { size: total, sha256: digest, created_at: Date.now() });
    for (let seq = 0; seq * RAW_CHUNK_BYTES < total; seq++) {
      const data = bytes.subarray(seq * RAW_CHUNK_BYTES, Math.min(total, (seq + 1) * RAW_CHUNK_BYTES));
      await insertRawChunk(trx, { raw_id: rawId, seq, data });
    }
    return rawId;
  }
  const head = prefix ?? Buffer.alloc(0);
  const total = head.length + size;
  const hash = prefix ? createHash('sha256').update(prefix) : null;
  const rawId = await insertRawMessage(trx, { size: total, sha256, created_at: Date.now() });
  const handle = await open(source, 'r');
  try {
    let position = 0;
    let seq = 0;
    // The first chunk starts with the prefix; the file fills the rest of each chunk.
    let fill = head.length;
    while (position < size) {
      const buffer = Buffer.allocUnsafe(Math.min(RAW_CHUNK_BYTES, fill + size - position));
      if (fill > 0) head.copy(buffer, 0);
      const { bytesRead } = await handle.read(buffer, fill, buffer.length - fill, position);
      if (bytesRead === 0) throw new Error('spool file shorter than its recorded size');
      hash?.update(buffer.subarray(fill, fill + bytesRead));
      await insertRawChunk(trx, { raw_id: rawId, seq, data: buffer.subarray(0, fill + bytesRead) });
      position += bytesRead;
      fill = 0;
      seq++;
    }
  } finally {
    await handle.close();
  }
  if (hash) await setRawMessageSha256(trx, rawId, hash.digest('hex'));
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
