import { describe, expect, it } from 'vitest';
import { formatInternalDate } from './internal-date.js';
import { type BodyPart, bodyStructureData, type Envelope, envelopeData } from './message-structure.js';
import {
  continuationRequest,
  formatData,
  taggedResponse,
  untaggedData,
  untaggedStatus,
} from './response-writer.js';

const text = (bytes: Buffer): string => bytes.toString('utf8');

describe('status responses and codes (RFC 3501 section 7.1, RFC 4315, RFC 7162)', () => {
  it('writes the responses of the RFC 3501 section 8 session', () => {
    expect(text(untaggedStatus('OK', 'IMAP4rev1 Service Ready'))).toBe('* OK IMAP4rev1 Service Ready\r\n');
    expect(text(taggedResponse('a001', 'OK', 'LOGIN completed'))).toBe('a001 OK LOGIN completed\r\n');
    expect(text(untaggedStatus('OK', 'UIDs valid', { name: 'UIDVALIDITY', value: 3857529045 }))).toBe(
      '* OK [UIDVALIDITY 3857529045] UIDs valid\r\n',
    );
    expect(
      text(
        untaggedStatus('OK', 'Limited', { name: 'PERMANENTFLAGS', flags: ['\\Deleted', '\\Seen', '\\*'] }),
      ),
    ).toBe('* OK [PERMANENTFLAGS (\\Deleted \\Seen \\*)] Limited\r\n');
    expect(text(taggedResponse('a002', 'OK', 'SELECT completed', { name: 'READ-WRITE' }))).toBe(
      'a002 OK [READ-WRITE] SELECT completed\r\n',
    );
    expect(text(untaggedStatus('BYE', 'IMAP4rev1 Server logging out'))).toBe(
      '* BYE IMAP4rev1 Server logging out\r\n',
    );
  });

  it('writes UIDPLUS, CAPABILITY and other codes', () => {
    expect(
      text(
        taggedResponse('A003', 'OK', 'APPEND completed', {
          name: 'APPENDUID',
          uidValidity: 38505,
          uids: [3955],
        }),
      ),
    ).toBe('A003 OK [APPENDUID 38505 3955] APPEND completed\r\n');
    const copy = {
      name: 'COPYUID',
      uidValidity: 38505,
      sourceUids: [304, 319, 320, 321],
      destinationUids: [3956, 3957, 3958, 3959],
    } as const;
    expect(text(taggedResponse('A004', 'OK', 'Done', copy))).toBe(
      'A004 OK [COPYUID 38505 304,319:321 3956:3959] Done\r\n',
    );
    expect(text(taggedResponse('a', 'NO', "Mailbox doesn't exist", { name: 'TRYCREATE' }))).toBe(
      "a NO [TRYCREATE] Mailbox doesn't exist\r\n",
    );
    expect(
      text(
        untaggedStatus('OK', 'ready', {
          name: 'CAPABILITY',
          capabilities: ['IMAP4rev1', 'LITERAL+', 'IDLE'],
        }),
      ),
    ).toBe('* OK [CAPABILITY IMAP4rev1 LITERAL+ IDLE] ready\r\n');
    expect(text(untaggedStatus('NO', 'disk 90% full', { name: 'ALERT' }))).toBe(
      '* NO [ALERT] disk 90% full\r\n',
    );
  });

  it('keeps text on one line and never starts it with a bracket', () => {
    expect(text(taggedResponse('a', 'BAD', 'line\r\nA2 OK injected'))).toBe('a BAD line A2 OK injected\r\n');
    expect(text(taggedResponse('a', 'BAD', '[x] y'))).toBe('a BAD  [x] y\r\n');
    expect(text(continuationRequest())).toBe('+ \r\n');
    expect(text(continuationRequest('YGgGCSqGSIb3EgECAgIBAAD/////6jcyG4GE3KkTzmeTxSd0qY+//AiA='))).toBe(
      '+ YGgGCSqGSIb3EgECAgIBAAD/////6jcyG4GE3KkTzmeTxSd0qY+//AiA=\r\n',
    );
  });
});

describe('values (RFC 3501 section 4)', () => {
  it('chooses quoted or literal as the bytes need', () => {
    expect(text(formatData(['a "b" \\c', null, 42, { atom: '\\Seen' }, []]))).toBe(
      '("a \\"b\\" \\\\c" NIL 42 \\Seen ())',
    );
    expect(text(formatData('two\r\nlines'))).toBe('{10}\r\ntwo\r\nlines');
    expect(text(formatData('收件箱'))).toBe('{9}\r\n收件箱');
    expect(text(formatData('收件箱', { utf8: true }))).toBe('"收件箱"');
    expect(formatData(Buffer.from([0xc4, 0xe3]), { utf8: true })).toEqual(
      Buffer.from('{2}\r\n\xc4\xe3', 'latin1'),
    );
    expect(text(formatData({ literal: 'x', binary: true }))).toBe('~{1}\r\nx');
  });
});

describe('ENVELOPE and BODYSTRUCTURE (RFC 3501 section 7.4.2)', () => {
  const gray = { name: 'Terry Gray', mailbox: 'gray', host: 'cac.washington.edu' };
  const envelope: Envelope = {
    date: 'Wed, 17 Jul 1996 02:23:25 -0700 (PDT)',
    subject: 'IMAP4rev1 WG mtg summary and minutes',
    from: [gray],
    sender: [],
    replyTo: [],
    to: [{ name: null, mailbox: 'imap', host: 'cac.washington.edu' }],
    cc: [
      { name: null, mailbox: 'minutes', host: 'CNRI.Reston.VA.US' },
      { name: 'John Klensin', mailbox: 'KLENSIN', host: 'MIT.EDU' },
    ],
    bcc: [],
    inReplyTo: null,
    messageId: '<B27397-0100000@cac.washington.edu>',
  };

  it('writes the FETCH response of the RFC 3501 section 8 session', () => {
    const body: BodyPart = {
      type: 'text',
      subtype: 'plain',
      parameters: { charset: 'US-ASCII' },
      size: 3028,
      lines: 92,
    };
    const response = untaggedData([
      12,
      { atom: 'FETCH' },
      [
        { atom: 'FLAGS' },
        [{ atom: '\\Seen' }],
        { atom: 'INTERNALDATE' },
        formatInternalDate(new Date('1996-07-17T09:44:25Z'), -420),
        { atom: 'RFC822.SIZE' },
        4286,
        { atom: 'ENVELOPE' },
        envelopeData(envelope),
        { atom: 'BODY' },
        bodyStructureData(body, false),
      ],
    ]);
    expect(text(response)).toBe(
      '* 12 FETCH (FLAGS (\\Seen) INTERNALDATE "17-Jul-1996 02:44:25 -0700" RFC822.SIZE 4286 ENVELOPE ' +
        '("Wed, 17 Jul 1996 02:23:25 -0700 (PDT)" "IMAP4rev1 WG mtg summary and minutes" ' +
        '(("Terry Gray" NIL "gray" "cac.washington.edu")) (("Terry Gray" NIL "gray" "cac.washington.edu")) ' +
        '(("Terry Gray" NIL "gray" "cac.washington.edu")) ((NIL NIL "imap" "cac.washington.edu")) ' +
        '((NIL NIL "minutes" "CNRI.Reston.VA.US") ("John Klensin" NIL "KLENSIN" "MIT.EDU")) NIL NIL ' +
        '"<B27397-0100000@cac.washington.edu>") BODY ("TEXT" "PLAIN" ("CHARSET" "US-ASCII") NIL NIL "7BIT" 3028 92))\r\n',
    );
  });

  it('writes groups, multiparts, attached messages and the extension data', () => {
    const structure: BodyPart = {
      type: 'multipart',
      subtype: 'mixed',
      parameters: { boundary: 'b1' },
      children: [
        {
          type: 'text',
          subtype: 'plain',
          parameters: { charset: 'UTF-8' },
          encoding: 'base64',
          size: 12,
          lines: 1,
        },
        {
          type: 'application',
          subtype: 'pdf',
          parameters: { name: '=?UTF-8?B?5oql5ZGK?=.pdf' },
          encoding: 'base64',
          size: 100,
          disposition: { type: 'attachment', parameters: { filename: '报告.pdf' } },
          language: ['zh-CN'],
        },
        {
          type: 'message',
          subtype: 'rfc822',
          parameters: {},
          size: 50,
          lines: 3,
          message: {
            envelope: { ...envelope, from: [{ group: 'team', members: [gray] }], to: [], cc: [] },
            body: { type: 'text', subtype: 'plain', parameters: {}, size: 5, lines: 1 },
          },
        },
      ],
    };
    const written = text(formatData(bodyStructureData(structure, true)));
    expect(written).toContain('("TEXT" "PLAIN" ("CHARSET" "UTF-8") NIL NIL "BASE64" 12 1 NIL NIL NIL NIL)');
    expect(written).toContain('("ATTACHMENT" ("FILENAME" {10}\r\n报告.pdf)) ("zh-CN") NIL)');
    expect(written).toContain(
      '((NIL NIL "team" NIL) ("Terry Gray" NIL "gray" "cac.washington.edu") (NIL NIL NIL NIL))',
    );
    expect(written.endsWith(' "MIXED" ("BOUNDARY" "b1") NIL NIL NIL)')).toBe(true);
    expect(text(formatData(bodyStructureData(structure, false)))).not.toContain('BOUNDARY');
  });
});
