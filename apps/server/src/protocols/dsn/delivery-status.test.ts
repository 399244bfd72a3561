import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textMutationsOf } from '../../../test/support/mutations.js';
import {
  type DeliveryStatusReport,
  DsnSyntaxError,
  failureStatus,
  formatDeliveryStatus,
  parseDeliveryStatus,
  type RecipientStatus,
} from './delivery-status.js';

describe('failureStatus (RFC 3464 section 2.3.4, RFC 3463)', () => {
  it('reports a class 5 status for every failure', () => {
    expect(failureStatus({ reply: '550 5.1.1 User unknown', expired: false })).toBe('5.1.1');
    expect(failureStatus({ reply: '550 User unknown', expired: false })).toBe('5.0.0');
    expect(failureStatus({ reply: '421 4.7.0 Try again later', expired: true })).toBe('5.4.7');
    expect(failureStatus({ status: '5.1.10', expired: false })).toBe('5.1.10');
    expect(failureStatus({ reply: '550 4.2.2 odd', status: '5.1.2', expired: false })).toBe('5.1.2');
  });

  it('whatever the reply says', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'binary' })), fc.boolean(), (reply, expired) => {
        expect(failureStatus({ reply, expired })).toMatch(/^5\.\d{1,3}\.\d{1,3}$/);
      }),
      { numRuns: 500 },
    );
  });
});

/** Field values as a server hands them to us: anything, control characters and Chinese included. */
const anything = fc.string({ unit: 'binary', maxLength: 120 });
/** Dates that RFC 5322 section 3.3 writes with a four-digit year. */
const time = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(9999, 11, 31) });
const recipient: fc.Arbitrary<RecipientStatus> = fc.record({
  finalRecipient: anything,
  action: fc.constantFrom('failed', 'delayed', 'delivered', 'relayed', 'expanded'),
  status: fc
    .tuple(fc.constantFrom('2', '4', '5'), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 }))
    .map((parts) => parts.join('.')),
  remoteMta: fc.option(anything),
  diagnosticCode: fc.option(anything),
  lastAttemptDate: fc.option(time),
});
const report: fc.Arbitrary<DeliveryStatusReport> = fc.record({
  reportingMta: anything,
  arrivalDate: fc.option(time),
  recipients: fc.array(recipient, { minLength: 1, maxLength: 5 }),
});

/** What a value becomes on the wire: printable ASCII (section 2.1), at most 900 characters, trimmed when read. */
const printable = (text: string) =>
  text
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 900)
    .trim();
const toSecond = (value: number | null) => (value === null ? null : value - (value % 1000));

describe('message/delivery-status (RFC 3464 section 2)', () => {
  it('format → parse gives the fields back, and no value can add a field or a recipient', () => {
    fc.assert(
      fc.property(report, (input) => {
        const text = formatDeliveryStatus(input);
        expect(text.replace(/\r\n/g, '')).toMatch(/^[\x20-\x7e]*$/);
        expect(parseDeliveryStatus(text)).toEqual({
          reportingMta: printable(input.reportingMta),
          arrivalDate: toSecond(input.arrivalDate),
          recipients: input.recipients.map((r) => ({
            finalRecipient: printable(r.finalRecipient),
            action: r.action,
            status: r.status,
            remoteMta: r.remoteMta ? printable(r.remoteMta) : null,
            diagnosticCode: r.diagnosticCode ? printable(r.diagnosticCode) : null,
            lastAttemptDate: toSecond(r.lastAttemptDate),
          })),
        });
      }),
      { numRuns: 500 },
    );
  });

  it('reads a report written by another MTA (folded fields, other fields, LF line ends)', () => {
    const text = [
      'Reporting-MTA: dns; mx.example.net',
      'X-Postfix-Queue-ID: 4ABC',
      'Arrival-Date: Tue,  4 Mar 2025 05:06:07 +0800',
      '',
      'Final-Recipient: RFC822; lisi@example.net',
      'Original-Recipient: rfc822;lisi@example.net',
      'Action: failed',
      'Status: 5.1.1',
      'Remote-MTA: DNS; mx.b.example',
      'Diagnostic-Code: smtp; 550 5.1.1 <lisi@example.net>: Recipient',
      '    address rejected: User unknown',
      '',
    ].join('\n');
    expect(parseDeliveryStatus(text)).toEqual({
      reportingMta: 'mx.example.net',
      arrivalDate: Date.UTC(2025, 2, 3, 21, 6, 7),
      recipients: [
        {
          finalRecipient: 'lisi@example.net',
          action: 'failed',
          status: '5.1.1',
          remoteMta: 'mx.b.example',
          diagnosticCode: '550 5.1.1 <lisi@example.net>: Recipient address rejected: User unknown',
          lastAttemptDate: null,
        },
      ],
    });
    expect(() => parseDeliveryStatus('Reporting-MTA: dns; a\r\n')).toThrow(DsnSyntaxError);
    expect(() => parseDeliveryStatus('Reporting-MTA: a\r\n\r\nFinal-Recipient: rfc822; b\r\n')).toThrow(
      DsnSyntaxError,
    );
  });

  it('random and damaged text: DsnSyntaxError or a report, nothing else', () => {
    let completed = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 400 }),
          report.map(formatDeliveryStatus).chain(textMutationsOf),
        ),
        (text) => {
          try {
            const parsed = parseDeliveryStatus(text);
            expect(parsed.recipients.length).toBeGreaterThan(0);
          } catch (error) {
            if (!(error instanceof DsnSyntaxError)) throw error;
          }
          completed += 1;
        },
      ),
      { numRuns: 1000 },
    );
    expect(completed).toBe(1000);
  });
});
