import { describe, expect, it } from 'vitest';
import { decodeSaslPlain, encodeSaslPlain } from '../sasl/sasl-plain.js';
import { Pop3CommandReader } from './command-reader.js';

describe('POP3 commands (RFC 1939 section 3)', () => {
  it('reads the RFC 1939 section 10 example session', () => {
    const reader = new Pop3CommandReader();
    const events = reader.read(
      Buffer.from(
        'APOP mrose c4c9334bac560ecc979e58001b3e22fb\r\nSTAT\r\nLIST\r\nretr 1\r\nDELE 1\r\nTOP 2 10\r\nQUIT\r\n',
      ),
    );
    expect(
      events.map((event) => (event.type === 'command' ? [event.command.name, ...event.command.args] : event)),
    ).toEqual([
      ['APOP', 'mrose', 'c4c9334bac560ecc979e58001b3e22fb'],
      ['STAT'],
      ['LIST'],
      ['RETR', '1'],
      ['DELE', '1'],
      ['TOP', '2', '10'],
      ['QUIT'],
    ]);
  });

  it('keeps a password with spaces and Chinese whole (RFC 1939 section 7 PASS)', () => {
    const [event] = new Pop3CommandReader().read(Buffer.from('PASS 我的 密码\r\n'));
    expect(event).toEqual({
      type: 'command',
      command: { name: 'PASS', args: ['我的', '密码'], rest: '我的 密码' },
    });
  });

  it('refuses lines over 255 octets with CRLF (RFC 2449 section 4) without keeping them', () => {
    const reader = new Pop3CommandReader();
    const exact = `USER ${'x'.repeat(248)}\r\n`;
    expect(Buffer.byteLength(exact)).toBe(255);
    expect(reader.read(Buffer.from(exact))).toMatchObject([{ type: 'command' }]);
    expect(reader.read(Buffer.from(`USER ${'x'.repeat(249)}\r\nNOOP\r\n`))).toEqual([
      { type: 'error', text: 'line too long' },
      { type: 'command', command: { name: 'NOOP', args: [], rest: '' } },
    ]);
    expect(reader.read(Buffer.alloc(10_000, 0x78))).toEqual([{ type: 'error', text: 'line too long' }]);
    for (let i = 0; i < 50; i++) expect(reader.read(Buffer.alloc(10_000, 0x78))).toEqual([]);
    expect(reader.read(Buffer.from('\nSTAT\r\n'))).toMatchObject([
      { type: 'command', command: { name: 'STAT' } },
    ]);
  });

  it('refuses keywords that are not 3 or 4 letters, and NUL', () => {
    const events = new Pop3CommandReader().read(Buffer.from('RETRIEVE 1\r\nX\r\nUSER a\0b\r\n\r\nSTLS\r\n'));
    expect(events.map((event) => event.type)).toEqual(['error', 'error', 'error', 'command']);
  });

  it('reads the AUTH client response asked for (RFC 5034 section 4)', () => {
    const reader = new Pop3CommandReader();
    reader.push(Buffer.from('AUTH PLAIN\r\ndGVzdAB0ZXN0AHRlc3Q=\r\nCAPA\r\n'));
    expect(reader.next()).toEqual({
      type: 'command',
      command: { name: 'AUTH', args: ['PLAIN'], rest: 'PLAIN' },
    });
    reader.expectLine();
    const response = reader.next();
    expect(response).toEqual({ type: 'line', line: 'dGVzdAB0ZXN0AHRlc3Q=' });
    expect(reader.next()).toMatchObject({ type: 'command', command: { name: 'CAPA' } });
    if (response?.type !== 'line') throw new Error('no line');
    expect(decodeSaslPlain(response.line)).toEqual({
      authorizationId: 'test',
      authenticationId: 'test',
      password: 'test',
    });
  });
});

describe('SASL PLAIN (RFC 4616 section 2)', () => {
  it('reads the RFC 4616 example and Chinese credentials', () => {
    expect(decodeSaslPlain('AHRpbQB0YW5zdGFhZnRhbnN0YWFm')).toEqual({
      authorizationId: '',
      authenticationId: 'tim',
      password: 'tanstaaftanstaaf',
    });
    const credentials = { authorizationId: '', authenticationId: '张三@例子.中国', password: '密码 1' };
    expect(decodeSaslPlain(encodeSaslPlain(credentials))).toEqual(credentials);
  });

  it.each(['', '=', 'AHRpbQ', 'AHRpbQ==', 'dGlt', 'AHRpbQB0aW0AeA==', 'AP8AeA==', 'AHRpbQB0Y W0='])(
    'refuses %j',
    (text) => {
      expect(decodeSaslPlain(text)).toBeNull();
    },
  );
});
