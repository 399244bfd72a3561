import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textMutationsOf } from '../../../test/support/mutations.js';
import { enhancedStatus, parseReply, Replies, replyLine } from './smtp-reply.js';

describe('enhancedStatus (RFC 3463, RFC 2034)', () => {
  it('reads the enhanced status code that leads a reply', () => {
    expect(enhancedStatus('550 5.1.1 <a@b.example>: User unknown')).toBe('5.1.1');
    expect(enhancedStatus('552-5.2.2 The email account that you tried to reach is over quota')).toBe('5.2.2');
    expect(enhancedStatus('554 5.7.1')).toBe('5.7.1');
    expect(enhancedStatus('550 User unknown')).toBeNull();
    expect(enhancedStatus('550 5.1.1x nonsense')).toBeNull();
  });
});

const code = fc.tuple(
  fc.integer({ min: 2, max: 5 }),
  fc.integer({ min: 0, max: 5 }),
  fc.integer({ min: 0, max: 9 }),
);
const enhanced = fc
  .tuple(fc.constantFrom('2', '4', '5'), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 }))
  .map((parts) => parts.join('.'));
/** Reply text: printable ASCII (RFC 5321 section 4.2: textstring is HT and 32-126). */
const text = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});
const anything = fc.string({ unit: 'binary', maxLength: 200 });

/** Every reply our server sends, built from any input. */
const ourReply = fc.oneof(
  fc.constant(Replies.blocked()),
  fc.constant(Replies.temporarilyBlocked()),
  fc.constant(Replies.tooManyConnections()),
  anything.map((address) => Replies.unverifiedDomain(address)),
  anything.map((address) => Replies.unknownRecipient(address)),
  fc.constant(Replies.tooManyRecipients()),
  fc.constant(Replies.mailboxFull()),
  fc.nat().map((limit) => Replies.tooBig(limit)),
  fc.constant(Replies.bareLineBreak()),
  fc.nat().map((limit) => Replies.lineTooLong(limit)),
  fc.stringMatching(/^[a-zA-Z ]{0,30}$/).map((what) => Replies.structureTooLarge(what)),
  fc.constant(Replies.rejectedByFilter()),
  fc.constant(Replies.storageFull()),
  fc.constant(Replies.storageFailed()),
  fc.constant(Replies.authRequired()),
  fc.constant(Replies.startTlsFirst()),
  fc.constant(Replies.badCredentials()),
  fc.constant(Replies.authUnavailable()),
  fc.constant(Replies.tooManyAuthFailures()),
  fc.constantFrom('Envelope sender', 'From header').map((what) => Replies.senderNotOwned(what)),
  anything.map((address) => Replies.recipientNotAllowed(address)),
  fc.constant(Replies.sendingLimit()),
);

describe('SMTP replies (RFC 5321 section 4.2)', () => {
  it('our replies format as one printable line that parses back to their codes, whatever the address', () => {
    fc.assert(
      fc.property(ourReply, (reply) => {
        const line = replyLine(reply);
        expect(line).toMatch(/^[\x20-\x7e]+$/);
        expect(parseReply(`${line}\r\n`)).toEqual({
          code: reply.responseCode,
          enhancedCode: reply.enhancedCode,
          lines: [reply.message.slice(reply.enhancedCode.length + 1)],
        });
        expect(enhancedStatus(line)).toBe(reply.enhancedCode);
        expect(reply.transient).toBe(reply.responseCode < 500);
      }),
      { numRuns: 500 },
    );
  });

  it('multi-line replies format → parse', () => {
    fc.assert(
      fc.property(
        code,
        fc.option(enhanced),
        fc.array(text, { minLength: 1, maxLength: 5 }),
        ([a, b, c], status, lines) => {
          const value = a * 100 + b * 10 + c;
          const prefix = status ? `${status} ` : '';
          const wire = lines
            .map((line, index) => `${value}${index === lines.length - 1 ? ' ' : '-'}${prefix}${line}\r\n`)
            .join('');
          const parsed = parseReply(wire);
          expect(parsed?.code).toBe(value);
          if (status) {
            expect(parsed?.enhancedCode).toBe(status);
            expect(parsed?.lines).toEqual(lines);
            // 3yz replies (354) carry no enhanced code (RFC 3463 section 2: classes 2, 4 and 5)
            expect(enhancedStatus(wire)).toBe(a === 3 ? null : status);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('parseReply and enhancedStatus answer null for what is not a reply, and never throw', () => {
    expect(parseReply('250-first\r\n251 second\r\n')).toBeNull();
    expect(parseReply('250-first\r\n')).toBeNull();
    expect(parseReply('hello\r\n')).toBeNull();
    expect(parseReply('250\r\n')).toEqual({ code: 250, enhancedCode: null, lines: [''] });
    let completed = 0;
    const valid = fc
      .tuple(code, enhanced, fc.array(text, { minLength: 1, maxLength: 3 }))
      .map(([[a, b, c], status, lines]) =>
        lines
          .map((line, index) => `${a}${b}${c}${index === lines.length - 1 ? ' ' : '-'}${status} ${line}\r\n`)
          .join(''),
      );
    fc.assert(
      fc.property(fc.oneof(anything, valid.chain(textMutationsOf)), (input) => {
        const parsed = parseReply(input);
        if (parsed) expect(parsed.code).toBeGreaterThanOrEqual(200);
        enhancedStatus(input);
        completed += 1;
      }),
      { numRuns: 1000 },
    );
    expect(completed).toBe(1000);
  });
});
