/** Reading the header block of a message (RFC 5322 section 2.1) from a stream. */
import type { Readable } from 'node:stream';

/**
 * The header block of a stored message (RFC 5322 section 2.1: everything before the first empty
 * line), without that line, read up to `limit` bytes; the stream is closed either way.
 */
export async function readHeaderBlock(stream: Readable, limit = 256 * 1024): Promise<Buffer> {
  let collected = Buffer.alloc(0);
  try {
    for await (const chunk of stream) {
      collected = Buffer.concat([collected, chunk as Buffer]);
      const end = collected.indexOf('\r\n\r\n');
      if (end >= 0) return collected.subarray(0, end);
      if (collected.length >= limit) break;
    }
  } finally {
    stream.destroy();
  }
  return collected;
}
