import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt, mutationsOf } from '../../../test/support/mutations.js';
import { decodeSaslPlain, encodeSaslPlain } from '../sasl/sasl-plain.js';
import { Pop3CommandReader, type Pop3ReaderEvent } from './command-reader.js';

/** Feeds the chunks one by one, draining after each, and checks that little is ever held. */
function readAll(chunks: Buffer[], expectLineAfterAuth = true): Pop3ReaderEvent[] {
  const reader = new Pop3CommandReader();
  const events: Pop3ReaderEvent[] = [];
  for (const chunk of chunks) {
    reader.push(chunk);
    for (let event = reader.next(); event !== null; event = reader.next()) {
      events.push(event);
      if (expectLineAfterAuth && event.type === 'command' && event.command.name === 'AUTH')
        reader.expectLine();
    }
    // at most a line being read (an AUTH response may be longer) and the chunk just pushed
    if (reader.buffered > 16 * 1024 + chunk.length) throw new Error('holds too much');
  }
  return events;
}

const fragment = fc.oneof(
  fc.constantFrom(
    'USER ',
    'PASS ',
    'AUTH PLAIN',
    'STLS',
    'RETR 1',
    'TOP 1 5',
    'CAPA',
    ' ',
    '\r\n',
    '\n',
    '\r',
    '\0',
  ),
  fc.constantFrom('x'.repeat(200), '密码', 'dGVzdAB0ZXN0AHRlc3Q='),
  fc.uint8Array({ maxLength: 10 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);
const pop3ish = fc.array(fragment, { maxLength: 30 }).map((parts) => Buffer.from(parts.join(''), 'utf8'));
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe('any bytes, in any chunking (RFC 1939 section 3, RFC 2449 section 4)', () => {
  it('gives the same commands and errors as the bytes fed whole', () => {
    fc.assert(
      fc.property(pop3ish, cuts, (bytes, positions) => {
        const whole = readAll([bytes]);
        expect(readAll(cutAt(bytes, positions))).toEqual(whole);
        for (const event of whole) {
          if (event.type === 'command') expect(event.command.name).toMatch(/^[A-Z]{3,4}$/);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads damaged sessions the same way in any chunking', () => {
    const session = Buffer.from(
      'CAPA\r\nSTLS\r\nUSER 张三@例子.中国\r\nPASS 密码 1\r\nAUTH PLAIN\r\nAHRpbQB0YW5zdGFhZnRhbnN0YWFm\r\nSTAT\r\nTOP 1 10\r\nQUIT\r\n',
    );
    fc.assert(
      fc.property(mutationsOf(session), cuts, (bytes, positions) => {
        const whole = readAll([bytes]);
        expect(readAll(cutAt(bytes, positions))).toEqual(whole);
        for (const event of whole) if (event.type === 'line') decodeSaslPlain(event.line);
      }),
      { numRuns: 400 },
    );
  });
});

describe('SASL PLAIN (RFC 4616)', () => {
  const name = fc.string({ unit: 'grapheme', maxLength: 20 }).filter((text) => !text.includes('\0'));
  it('gives back what was encoded', () => {
    fc.assert(
      fc.property(
        name,
        name.filter(Boolean),
        name.filter(Boolean),
        (authorizationId, authenticationId, password) => {
          const credentials = { authorizationId, authenticationId, password };
          expect(decodeSaslPlain(encodeSaslPlain(credentials))).toEqual(credentials);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('returns null or credentials for anything', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.base64String({ maxLength: 40 })), (text) => {
        const result = decodeSaslPlain(text);
        if (result !== null) expect(result.authenticationId).not.toBe('');
      }),
      { numRuns: 300 },
    );
  });
});
