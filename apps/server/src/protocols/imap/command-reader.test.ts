import { describe, expect, it } from 'vitest';
import { type ImapCommand, ImapCommandReader, type ImapReaderEvent } from './command-reader.js';
import type { ImapValue } from './imap-value.js';

function commands(events: ImapReaderEvent[]): ImapCommand[] {
  return events.flatMap((event) => (event.type === 'command' ? [event.command] : []));
}

function atom(value: string): ImapValue {
  return { type: 'atom', value };
}

function quoted(value: string): ImapValue {
  return { type: 'quoted', value };
}

describe('the RFC 3501 section 8 sample session, client side', () => {
  it('reads each command with its arguments', () => {
    const reader = new ImapCommandReader();
    const events = reader.read(
      Buffer.from(
        'a001 login mrc secret\r\n' +
          'a002 select inbox\r\n' +
          'a003 fetch 12 full\r\n' +
          'a004 fetch 12 body[header]\r\n' +
          'a005 store 12 +flags \\deleted\r\n' +
          'a006 logout\r\n',
      ),
    );
    expect(events.every((event) => event.type === 'command')).toBe(true);
    expect(commands(events)).toEqual([
      { tag: 'a001', command: 'LOGIN', args: [atom('mrc'), atom('secret')] },
      { tag: 'a002', command: 'SELECT', args: [atom('inbox')] },
      { tag: 'a003', command: 'FETCH', args: [atom('12'), atom('full')] },
      {
        tag: 'a004',
        command: 'FETCH',
        args: [atom('12'), { type: 'atom', value: 'body', section: [atom('header')] }],
      },
      { tag: 'a005', command: 'STORE', args: [atom('12'), atom('+flags'), atom('\\deleted')] },
      { tag: 'a006', command: 'LOGOUT', args: [] },
    ]);
  });
});

describe('literals (RFC 3501 section 4.3, RFC 7888)', () => {
  it('asks for a synchronising literal with a continuation before its bytes', () => {
    // RFC 9051 section 6.3.12, the APPEND example, shortened
    const message =
      'Date: Mon, 7 Feb 1994 21:52:25 -0800 (PST)\r\nSubject: afternoon meeting\r\n\r\nHello Joe\r\n';
    const reader = new ImapCommandReader();
    const first = reader.read(Buffer.from(`A003 APPEND saved-messages (\\Seen) {${message.length}}\r\n`));
    expect(first).toEqual([{ type: 'continue' }]);
    const rest = reader.read(Buffer.from(`${message}\r\n`));
    expect(commands(rest)).toEqual([
      {
        tag: 'A003',
        command: 'APPEND',
        args: [
          atom('saved-messages'),
          { type: 'list', items: [atom('\\Seen')] },
          { type: 'literal', value: Buffer.from(message), binary: false },
        ],
      },
    ]);
  });

  it('reads LITERAL+ without a continuation (RFC 7888 section 3 example)', () => {
    const reader = new ImapCommandReader({ literalPlus: 'LITERAL+' });
    const events = reader.read(Buffer.from('A001 LOGIN {11+}\r\nFRED FOOBAR {7+}\r\nfat man\r\n'));
    expect(events).toEqual([
      {
        type: 'command',
        command: {
          tag: 'A001',
          command: 'LOGIN',
          args: [
            { type: 'literal', value: Buffer.from('FRED FOOBAR'), binary: false },
            { type: 'literal', value: Buffer.from('fat man'), binary: false },
          ],
        },
      },
    ]);
  });

  it('refuses a LITERAL- literal over 4096 octets and skips its bytes', () => {
    const reader = new ImapCommandReader({ literalPlus: 'LITERAL-' });
    const events = reader.read(Buffer.from(`a APPEND INBOX {5000+}\r\n${'x'.repeat(5000)}\r\nb NOOP\r\n`));
    expect(events).toEqual([
      { type: 'bad', tag: 'a', text: expect.stringContaining('4096'), code: 'TOOBIG', close: false },
      { type: 'command', command: { tag: 'b', command: 'NOOP', args: [] } },
    ]);
  });

  it('answers a synchronising literal over the limit with BAD instead of "+", and reads on', () => {
    const reader = new ImapCommandReader({ maxLiteralBytes: 100 });
    const events = reader.read(Buffer.from('a APPEND INBOX {101}\r\nb NOOP\r\n'));
    expect(events.map((event) => event.type)).toEqual(['bad', 'command']);
    expect(events[0]).toMatchObject({ tag: 'a', code: 'TOOBIG', close: false });
  });

  it('closes when a non-synchronising literal is too big to skip', () => {
    const reader = new ImapCommandReader({ maxLiteralBytes: 100 });
    const events = reader.read(Buffer.from('a APPEND INBOX {999999+}\r\nxxxx'));
    expect(events).toEqual([
      expect.objectContaining({ type: 'bad', tag: 'a', close: false }),
      expect.objectContaining({ type: 'bad', tag: null, close: true }),
    ]);
    expect(reader.read(Buffer.from('b NOOP\r\n'))).toEqual([]);
  });

  it('skips a refused non-synchronising literal up to maxSkipBytes without buffering it, and reads on', () => {
    const reader = new ImapCommandReader({ maxLiteralBytes: 100, maxSkipBytes: 10_000 });
    const first = reader.read(Buffer.from('a APPEND INBOX {5000+}\r\n'));
    expect(first).toEqual([expect.objectContaining({ type: 'bad', tag: 'a', code: 'TOOBIG', close: false })]);
    for (let sent = 0; sent < 5000; sent += 1000) {
      expect(reader.read(Buffer.alloc(1000, 0x78))).toEqual([]);
      expect(reader.buffered).toBeLessThan(200);
    }
    expect(reader.read(Buffer.from('\r\nb NOOP\r\n'))).toEqual([
      { type: 'command', command: { tag: 'b', command: 'NOOP', args: [] } },
    ]);
  });

  it('reads literal8 and empty literals', () => {
    const reader = new ImapCommandReader();
    const events = reader.read(Buffer.from('a APPEND INBOX ~{3+}\r\n\0\x01\x02 {0+}\r\n\r\n'));
    expect(commands(events)[0]?.args.slice(1)).toEqual([
      { type: 'literal', value: Buffer.from([0, 1, 2]), binary: true },
      { type: 'literal', value: Buffer.alloc(0), binary: false },
    ]);
  });
});

describe('grammar', () => {
  it('keeps sections with header lists and partials parseable', () => {
    const reader = new ImapCommandReader();
    const [command] = commands(
      reader.read(
        Buffer.from('a1 UID FETCH 1:*,3 (UID BODY.PEEK[1.2.HEADER.FIELDS (From "To")]<0.100>)\r\n'),
      ),
    );
    expect(command).toEqual({
      tag: 'a1',
      command: 'UID FETCH',
      args: [
        atom('1:*,3'),
        {
          type: 'list',
          items: [
            atom('UID'),
            {
              type: 'atom',
              value: 'BODY.PEEK',
              section: [atom('1.2.HEADER.FIELDS'), { type: 'list', items: [atom('From'), quoted('To')] }],
              partial: { offset: 0, length: 100 },
            },
          ],
        },
      ],
    });
  });

  it('reads NIL, escaped quotes, UTF-8 in quoted strings and bracketed mailbox names', () => {
    const reader = new ImapCommandReader();
    const [command] = commands(reader.read(Buffer.from('t LIST "" "收件箱/\\"x\\"" NIL [Gmail]/Sent %\r\n')));
    expect(command?.args).toEqual([
      quoted(''),
      quoted('收件箱/"x"'),
      { type: 'nil' },
      atom('[Gmail]/Sent'),
      atom('%'),
    ]);
  });

  it('answers BAD with the tag for bad arguments, and without one for a bad tag', () => {
    const reader = new ImapCommandReader();
    const events = reader.read(
      Buffer.from('a1 LOGIN "open\r\n+x NOOP\r\na2 FETCH 1 (FLAGS\r\n\r\na3 noop)\r\n'),
    );
    expect(events.map((event) => (event.type === 'bad' ? event.tag : event.type))).toEqual([
      'a1',
      null,
      'a2',
      'a3',
    ]);
  });

  it('takes bare LF as a line end and reads the raw line asked for', () => {
    const reader = new ImapCommandReader();
    reader.push(Buffer.from('a AUTHENTICATE PLAIN\nAHVzZXIAcGFzcw==\r\nb IDLE\r\nDONE\r\n'));
    expect(reader.next()).toMatchObject({ type: 'command', command: { command: 'AUTHENTICATE' } });
    reader.expectLine();
    expect(reader.next()).toEqual({ type: 'line', line: Buffer.from('AHVzZXIAcGFzcw==') });
    expect(reader.next()).toMatchObject({ type: 'command', command: { command: 'IDLE' } });
    reader.expectLine();
    expect(reader.next()).toEqual({ type: 'line', line: Buffer.from('DONE') });
    expect(reader.next()).toBeNull();
  });

  it('refuses an over-long raw line without a tag, then reads commands again', () => {
    const reader = new ImapCommandReader({ maxLineBytes: 20 });
    reader.expectLine();
    const events = reader.read(Buffer.from(`abc ${'A'.repeat(40)}\r\nb NOOP\r\n`));
    expect(events).toEqual([
      expect.objectContaining({ type: 'bad', tag: null, close: false }),
      { type: 'command', command: { tag: 'b', command: 'NOOP', args: [] } },
    ]);
  });
});

describe('limits', () => {
  it('refuses a line over the limit without keeping it, then reads on', () => {
    const reader = new ImapCommandReader({ maxLineBytes: 100 });
    const events = reader.read(Buffer.from(`a1 LOGIN ${'x'.repeat(200)}`));
    expect(events).toEqual([expect.objectContaining({ type: 'bad', tag: 'a1', code: 'TOOBIG' })]);
    expect(reader.buffered).toBe(0);
    for (let i = 0; i < 100; i++) reader.read(Buffer.alloc(10_000, 0x78));
    expect(reader.buffered).toBe(0);
    expect(commands(reader.read(Buffer.from('\r\na2 NOOP\r\n')))).toEqual([
      { tag: 'a2', command: 'NOOP', args: [] },
    ]);
  });

  it('refuses deep nesting and too many tokens', () => {
    const reader = new ImapCommandReader({ maxDepth: 3, maxTokens: 5 });
    const events = reader.read(Buffer.from('a X ((((1))))\r\nb X 1 2 3 4 5 6\r\nc X ((1))\r\n'));
    expect(events.map((event) => event.type)).toEqual(['bad', 'bad', 'command']);
    expect(events[0]).toMatchObject({ code: 'LIMIT' });
  });

  it('reads a long line sent a byte at a time in linear time', () => {
    const reader = new ImapCommandReader();
    const line = Buffer.from(`a1 LOGIN ${'x'.repeat(30_000)} y\r\n`);
    const started = performance.now();
    const events: ImapReaderEvent[] = [];
    for (let at = 0; at < line.length; at++) events.push(...reader.read(line.subarray(at, at + 1)));
    expect(events).toMatchObject([{ type: 'command', command: { command: 'LOGIN' } }]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('counts the literals of one command together', () => {
    const reader = new ImapCommandReader({ maxLiteralBytes: 10, maxCommandLiteralBytes: 15 });
    const events = reader.read(Buffer.from('a X {10+}\r\n0123456789 {10+}\r\n0123456789\r\nb NOOP\r\n'));
    expect(events.map((event) => event.type)).toEqual(['bad', 'command']);
  });
});
