import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt } from '../../../test/support/mutations.js';
import { DataGuard, type DataGuardLimits } from './data-guard.js';

const limits: DataGuardLimits = { maxBytes: 4000, maxLineBytes: 200, maxHeaderBytes: 600 };

/** Feeds the chunks through a guard synchronously (Transform runs each write at once). */
function guard(chunks: Buffer[], bounds = limits): { violation: string | null; output: string } {
  const transform = new DataGuard(bounds);
  const out: Buffer[] = [];
  transform.on('data', (chunk: Buffer) => out.push(chunk));
  for (const chunk of chunks) transform.write(chunk);
  transform.end();
  return { violation: transform.violation, output: Buffer.concat(out).toString('latin1') };
}

/** A line of text without CR or LF, not a lone "." (RFC 5321 section 4.5.2 unstuffing is done before us). */
const line = fc
  .string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 100 })
  .filter((text) => text !== '.');
const message = fc
  .tuple(
    fc.array(
      line.filter((text) => text.length > 0),
      { maxLength: 5 },
    ),
    fc.array(line, { maxLength: 20 }),
  )
  .map(([header, body]) => ({ header, body }));

describe('DataGuard (RFC 5321 sections 2.3.8, 4.1.1.4, 4.5.3.1.6)', () => {
  it('passes CRLF mail through unchanged, however it is cut into chunks', () => {
    fc.assert(
      fc.property(message, fc.array(fc.nat(), { maxLength: 10 }), ({ header, body }, cuts) => {
        const text = `${[...header, '', ...body].map((l) => `${l}\r\n`).join('')}`;
        const bytes = Buffer.from(text, 'latin1');
        expect(guard(cutAt(bytes, cuts))).toEqual({ violation: null, output: text });
      }),
      { numRuns: 500 },
    );
  });

  it('stores bare LF line ends as CRLF, however it is cut', () => {
    fc.assert(
      fc.property(message, fc.array(fc.nat(), { maxLength: 10 }), ({ header, body }, cuts) => {
        const lines = [...header, '', ...body];
        const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''), 'latin1');
        const result = guard(cutAt(bytes, cuts));
        expect(result).toEqual({ violation: null, output: lines.map((l) => `${l}\r\n`).join('') });
        // and what it stored passes again unchanged
        expect(guard([Buffer.from(result.output, 'latin1')])).toEqual(result);
      }),
      { numRuns: 500 },
    );
  });

  it('any bytes: the verdict and the output do not depend on the chunking, and nothing is thrown', () => {
    const interesting = fc.constantFrom('\r', '\n', '\r\n', '.', '\n.\n', '\r\n.\r\n', 'a', ': ');
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b)),
      fc.array(interesting, { maxLength: 60 }).map((parts) => Buffer.from(parts.join(''), 'latin1')),
    );
    let completed = 0;
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 12 }), (input, cuts) => {
        const whole = guard([input]);
        const chunked = guard(cutAt(input, cuts));
        expect(chunked.violation).toBe(whole.violation);
        if (whole.violation === null) {
          expect(chunked.output).toBe(whole.output);
          // no bare CR or LF leaves the guard, and the stored bytes carry no end-of-data marker
          expect(whole.output.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
        }
        completed += 1;
      }),
      { numRuns: 1000 },
    );
    expect(completed).toBe(1000);
  });
});
