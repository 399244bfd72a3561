import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDeliveryStatus, parseDeliveryStatus } from './delivery-status.js';
import { composeReport } from './multipart-report.js';

/**
 * The parts of a multipart message, read as RFC 2046 section 5.1.1 has it: the boundary from the
 * Content-Type, a delimiter is CRLF "--" boundary (the CRLF belongs to it), the last one ends "--".
 */
function splitMultipart(bytes: Buffer): { type: string; headers: string; body: string }[] {
  const text = bytes.toString('latin1');
  const headerEnd = text.indexOf('\r\n\r\n');
  const head = text.slice(0, headerEnd).replace(/\r\n[ \t]+/g, ' ');
  const boundary = /^Content-Type: multipart\/report; report-type=delivery-status; boundary="([^"]+)"$/m.exec(
    head,
  )?.[1];
  if (!boundary) throw new Error('no multipart/report boundary');
  const sections = `\r\n${text.slice(headerEnd + 4)}`.split(`\r\n--${boundary}`);
  expect(sections.at(-1)).toBe('--\r\n');
  return sections.slice(1, -1).map((section) => {
    const part = section.replace(/^\r\n/, '');
    const end = part.indexOf('\r\n\r\n');
    const headers = part.slice(0, end);
    return {
      type: /^Content-Type: ([^;\r\n]+)/m.exec(headers)?.[1] ?? '',
      headers,
      body: part.slice(end + 4),
    };
  });
}

const notification = fc.string({ unit: 'grapheme', maxLength: 300 });
const originalHeaders = fc.oneof(
  fc
    .array(fc.stringMatching(/^[A-Za-z-]{1,20}: [\x20-\x7e]{0,60}$/), { minLength: 1, maxLength: 10 })
    .map((lines) => Buffer.from(lines.join('\r\n'))),
  // raw 8-bit headers (old GBK mail) are passed on as they were sent
  fc
    .uint8Array({ minLength: 1, maxLength: 200 })
    .map((bytes) => Buffer.from(bytes.map((b) => (b === 0x0d || b === 0x0a ? 0x20 : b)))),
);

describe('multipart/report (RFC 6522, RFC 3464)', () => {
  it('build → read back: the three parts as they went in, every line within RFC 5322 limits', () => {
    fc.assert(
      fc.property(
        notification,
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.string({ unit: 'binary', maxLength: 900 }),
        originalHeaders,
        (text, rcpt, reply, headers) => {
          const deliveryStatus = formatDeliveryStatus({
            reportingMta: 'mx.youju.test',
            arrivalDate: Date.UTC(2025, 0, 1),
            recipients: [
              {
                finalRecipient: rcpt,
                action: 'failed',
                status: '5.1.1',
                remoteMta: 'mx.example',
                diagnosticCode: reply,
                lastAttemptDate: Date.UTC(2025, 0, 2),
              },
            ],
          });
          const bytes = composeReport({
            headerFields: ['From: <MAILER-DAEMON@youju.test>', 'To: <a@youju.test>', 'Subject: report'],
            boundary: '=_youju_report_0123456789abcdef',
            notification: text,
            deliveryStatus,
            originalHeaders: headers,
          });
          const lines = bytes.toString('latin1').split('\r\n');
          expect(lines.at(-1)).toBe('');
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(998);

          const [human, status, original, ...rest] = splitMultipart(bytes);
          expect(rest).toEqual([]);
          expect(human?.type).toBe('text/plain');
          expect(Buffer.from(human?.body ?? '', 'base64').toString('utf8')).toBe(text);
          expect(status?.type).toBe('message/delivery-status');
          expect(parseDeliveryStatus(status?.body ?? '')).toEqual(parseDeliveryStatus(deliveryStatus));
          expect(original?.type).toBe('text/rfc822-headers');
          expect(original?.headers).toContain(
            `Content-Transfer-Encoding: ${headers.some((b) => b > 0x7f) ? '8bit' : '7bit'}`,
          );
          expect(original?.body).toBe(`${headers.toString('latin1')}\r\n`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
