import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt, mutationsOf } from '../../../test/support/mutations.js';
import { DotStuffer, dotStuff, topOf } from './response-writer.js';

/** What the client does (RFC 1939 section 3): lines up to ".", a leading "." removed. */
function unstuff(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  expect(text.endsWith('\r\n.\r\n') || text === '.\r\n').toBe(true);
  const lines = text.slice(0, -3).split('\r\n');
  lines.pop();
  for (const line of lines) expect(line).not.toBe('.');
  return lines.map((line) => (line.startsWith('.') ? line.slice(1) : line)).join('\r\n');
}

/** The message as it should arrive: every line end CRLF, no trailing line end. */
function normalised(message: Buffer): string {
  return message
    .toString('latin1')
    .replace(/\r\n|\r|\n/g, '\r\n')
    .replace(/\r\n$/, '');
}

const message = fc.oneof(
  fc
    .array(fc.constantFrom('.', '..', 'a', '\r', '\n', '\r\n', 'From: x', ' ', '\0', '\xff'), {
      maxLength: 40,
    })
    .map((parts) => Buffer.from(parts.join(''), 'latin1')),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
);

describe('byte-stuffing (RFC 1939 section 3)', () => {
  it('lets the client get the message back, line ends made CRLF, in any chunking', () => {
    fc.assert(
      fc.property(message, fc.array(fc.nat(), { maxLength: 10 }), (bytes, positions) => {
        const whole = dotStuff(bytes);
        expect(whole.includes('\n', 0) && /[^\r]\n|^\n|\r(?!\n)/.test(whole.toString('latin1'))).toBe(false);
        expect(unstuff(whole)).toBe(normalised(bytes));
        const stuffer = new DotStuffer();
        const pieces = cutAt(bytes, positions).map((chunk) => stuffer.push(chunk));
        expect(Buffer.concat([...pieces, stuffer.end()])).toEqual(whole);
      }),
      { numRuns: 500 },
    );
  });
});

describe('TOP (RFC 1939 section 7)', () => {
  const valid = Buffer.from('From: a@b\r\nSubject: x\r\n\r\none\r\n.two\r\nthree\r\n');
  it('is a prefix of the message that keeps the whole header, for any message and count', () => {
    fc.assert(
      fc.property(fc.oneof(message, mutationsOf(valid)), fc.nat({ max: 10 }), (bytes, lines) => {
        const top = topOf(bytes, lines);
        expect(bytes.subarray(0, top.length)).toEqual(top);
        const blank = /(^|\n)\r?\n/.exec(bytes.toString('latin1'));
        if (blank === null) expect(top.length).toBe(bytes.length);
        expect(topOf(bytes, lines + 1).length).toBeGreaterThanOrEqual(top.length);
      }),
      { numRuns: 300 },
    );
  });
});
