import { describe, expect, it } from 'vitest';
import {
  continuationResponse,
  DotStuffer,
  dotStuff,
  errResponse,
  isUniqueId,
  multiLineResponse,
  okResponse,
  topOf,
} from './response-writer.js';

const text = (bytes: Buffer): string => bytes.toString('utf8');

describe('POP3 responses (RFC 1939 section 3, RFC 2449)', () => {
  it('writes status lines, codes and continuations', () => {
    expect(text(okResponse('2 320'))).toBe('+OK 2 320\r\n');
    expect(text(okResponse())).toBe('+OK\r\n');
    expect(text(errResponse('maildrop already locked', 'IN-USE'))).toBe(
      '-ERR [IN-USE] maildrop already locked\r\n',
    );
    expect(text(errResponse('no such message\r\n+OK injected'))).toBe(
      '-ERR no such message +OK injected\r\n',
    );
    expect(text(continuationResponse())).toBe('+ \r\n');
  });

  it('writes the RFC 2449 section 6 CAPA example', () => {
    const capabilities = [
      'TOP',
      'USER',
      'SASL CRAM-MD5 KERBEROS_V4',
      'RESP-CODES',
      'LOGIN-DELAY 900',
      'PIPELINING',
      'EXPIRE 60',
      'UIDL',
      'IMPLEMENTATION Shlemazle-Plotz-v302',
    ];
    expect(text(multiLineResponse('Capability list follows', capabilities))).toBe(
      `+OK Capability list follows\r\n${capabilities.join('\r\n')}\r\n.\r\n`,
    );
    expect(text(multiLineResponse('', ['.hidden']))).toBe('+OK\r\n..hidden\r\n.\r\n');
  });

  it('checks unique-ids (RFC 1939 section 7)', () => {
    expect(isUniqueId('whqtswO00WBw418f9t5JxYwZ')).toBe(true);
    expect(isUniqueId('')).toBe(false);
    expect(isUniqueId('a b')).toBe(false);
    expect(isUniqueId('x'.repeat(71))).toBe(false);
  });
});

describe('byte-stuffing (RFC 1939 section 3)', () => {
  it('doubles leading dots, makes line ends CRLF and terminates', () => {
    expect(text(dotStuff(Buffer.from('Subject: x\n\n.\r\n..two\rlast')))).toBe(
      'Subject: x\r\n\r\n..\r\n...two\r\nlast\r\n.\r\n',
    );
    expect(text(dotStuff(Buffer.alloc(0)))).toBe('.\r\n');
    expect(text(dotStuff(Buffer.from('a\r\n')))).toBe('a\r\n.\r\n');
  });

  it('gives the same across chunk boundaries, a CR at the end of one and its LF in the next', () => {
    const stuffer = new DotStuffer();
    const out = Buffer.concat([
      stuffer.push(Buffer.from('a\r')),
      stuffer.push(Buffer.from('\n.')),
      stuffer.push(Buffer.from('b\r')),
      stuffer.end(),
    ]);
    expect(text(out)).toBe('a\r\n..b\r\n.\r\n');
  });
});

describe('TOP (RFC 1939 section 7)', () => {
  const message = Buffer.from('From: a@b\r\nSubject: 你好\r\n\r\nline 1\r\nline 2\r\nline 3\r\n');

  it('sends the header, the blank line and n lines of the body', () => {
    expect(text(topOf(message, 0))).toBe('From: a@b\r\nSubject: 你好\r\n\r\n');
    expect(text(topOf(message, 2))).toBe('From: a@b\r\nSubject: 你好\r\n\r\nline 1\r\nline 2\r\n');
    expect(topOf(message, 10)).toEqual(message);
    expect(text(topOf(Buffer.from('A: b\n\nbody\nmore'), 1))).toBe('A: b\n\nbody\n');
    expect(text(topOf(Buffer.from('A: b\r\nC: d'), 5))).toBe('A: b\r\nC: d');
  });
});
