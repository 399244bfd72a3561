import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** Size of one stored chunk: the same 256 KiB slices received mail uses (mail/raw-store.ts). */
export const CHUNK_BYTES = 256 * 1024;

/**
 * Copies a file into chunk rows through `insert` (called inside the caller's transaction), one
 * chunk in memory at a time.
 */
export async function copyFileToChunks(
  path: string,
  size: number,
  insert: (seq: number, data: Buffer) => Promise<unknown>,
): Promise<void> {
  const handle = await open(path, 'r');
  try {
    let position = 0;
    let seq = 0;
    while (position < size) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) throw new Error('file shorter than its recorded size');
      await insert(seq, buffer.subarray(0, bytesRead));
      position += bytesRead;
      seq++;
    }
  } finally {
    await handle.close();
  }
}

/** Streams chunk rows back in order, one query per chunk, so a large message is never held whole. */
export function streamChunks(load: (seq: number) => Promise<Buffer | Uint8Array | undefined>): Readable {
  async function* chunks() {
    for (let seq = 0; ; seq++) {
      const data = await load(seq);
      if (!data) return;
      yield Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
