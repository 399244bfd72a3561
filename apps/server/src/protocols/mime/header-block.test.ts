import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt } from '../../../test/support/mutations.js';
import { readHeaderBlock } from './header-block.js';

/** Header lines without an empty line among them, and any body. */
const header = fc
  .array(fc.stringMatching(/^[A-Za-z-]{1,20}: [\x20-\x7e]{0,60}$/), { minLength: 1, maxLength: 20 })
  .map((lines) => lines.join('\r\n'));
const body = fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes));

function chunked(bytes: Buffer, cuts: number[]): Readable {
  return Readable.from(cutAt(bytes, cuts).filter((chunk) => chunk.length > 0));
}

describe('readHeaderBlock (RFC 5322 section 2.1)', () => {
  it('returns the header block without the empty line that ends it, however the stream is cut', async () => {
    await fc.assert(
      fc.asyncProperty(header, body, fc.array(fc.nat(), { maxLength: 10 }), async (head, rest, cuts) => {
        const message = Buffer.concat([Buffer.from(`${head}\r\n\r\n`), rest]);
        expect((await readHeaderBlock(chunked(message, cuts))).toString()).toBe(head);
      }),
      { numRuns: 300 },
    );
  });

  it('stops at the limit when no empty line comes, and returns for any bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (bytes, cuts) => {
          const block = await readHeaderBlock(chunked(Buffer.from(bytes), cuts), 1000);
          expect(block.length).toBeLessThanOrEqual(bytes.length);
          expect(block.indexOf('\r\n\r\n')).toBe(-1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
