import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt, mutationsOf } from '../../../test/support/mutations.js';
import {
  defaultReaderOptions,
  type ImapCommand,
  ImapCommandReader,
  type ImapReaderEvent,
  type ImapReaderOptions,
} from './command-reader.js';
import { parseFetchArguments } from './fetch-attributes.js';
import { astringOf, ImapSyntaxError, type ImapValue } from './imap-value.js';
import { parseInternalDate, parseSearchDate } from './internal-date.js';
import { decodeMailboxName, encodeMailboxName } from './mailbox-name.js';
import { formatData, type ImapData } from './response-writer.js';
import { parseSearchArguments } from './search-keys.js';
import { parseSequenceSet, resolveSequenceSet } from './sequence-set.js';
import { parseStoreArguments } from './store-arguments.js';

/** Small limits, so that random input reaches them. */
const limits: Partial<ImapReaderOptions> = {
  maxLineBytes: 120,
  maxLiteralBytes: 40,
  maxCommandLiteralBytes: 60,
  maxDepth: 4,
  maxTokens: 25,
};

/** Feeds the chunks one by one, draining after each, and checks that little is ever held. */
function readAll(chunks: Buffer[], options: Partial<ImapReaderOptions> = limits): ImapReaderEvent[] {
  const reader = new ImapCommandReader(options);
  const events: ImapReaderEvent[] = [];
  const merged = { ...defaultReaderOptions, ...options };
  const bound = merged.maxLineBytes + 1 + (options.maxCommandLiteralBytes ?? merged.maxLiteralBytes);
  for (const chunk of chunks) {
    events.push(...reader.read(chunk));
    if (reader.buffered > bound) throw new Error(`holds ${reader.buffered} octets, more than ${bound}`);
  }
  return events;
}

/** Pieces of IMAP and of trouble, so that random sequences look like commands often enough. */
const fragment = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('1:*,3', '$', '(', ')', '"quoted \\" text"', '\\Seen', 'NIL', '收件箱', ' '),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom('{3}\r\nabc', '{3+}\r\nabc', '{0+}\r\n', '~{2}\r\n\0\0', '{5}\r\n'),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom('BODY.PEEK[1.2.HEADER.FIELDS (From)]<0.10>', 'BINARY[1]', 'BODY[', ']', '<'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '"',
      '\\',
      '((((((',
      '{41+}\r\n',
      '{99999999+}\r\n',
      '{18446744073709551616}\r\n',
      '\r\n',
      '\n',
      '\r',
      '\0',
      'x'.repeat(130),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  },
);
/** A command line or so: a tag (or not), a command, arguments and trouble, a line end (or not). */
const line = fc
  .tuple(
    fc.constantFrom('a1 ', 'B.2 ', '', '+x ', '* '),
    fc.constantFrom('FETCH ', 'APPEND INBOX ', 'LOGIN ', 'UID FETCH ', 'NOOP', 'X'),
    fc.array(
      fragment.map((text) => `${text} `),
      { maxLength: 8 },
    ),
    fc.constantFrom('\r\n', '\r\n', '\n', '', '\r\n\r\n'),
  )
  .map(([tag, command, args, end]) => `${tag}${command}${args.join('')}${end}`);
const imapish = fc.array(line, { maxLength: 8 }).map((lines) => Buffer.from(lines.join(''), 'utf8'));
const cuts = fc.array(fc.nat(), { maxLength: 12 });
const literalPlus = fc.constantFrom<ImapReaderOptions['literalPlus']>('LITERAL+', 'LITERAL-', 'none');

describe('any bytes, in any chunking (RFC 3501 section 9)', () => {
  it('gives the same commands and BADs as the bytes fed whole, and only those', () => {
    fc.assert(
      fc.property(imapish, cuts, literalPlus, (bytes, positions, mode) => {
        const options = { ...limits, literalPlus: mode };
        const whole = readAll([bytes], options);
        expect(readAll(cutAt(bytes, positions), options)).toEqual(whole);
        for (const event of whole) expect(['command', 'continue', 'bad']).toContain(event.type);
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same fed one byte at a time', () => {
    fc.assert(
      fc.property(imapish, (bytes) => {
        const bytewise = [...bytes].map((byte) => Buffer.from([byte]));
        expect(readAll(bytewise)).toEqual(readAll([bytes]));
      }),
      { numRuns: 100 },
    );
  });

  it('survives uniformly random bytes too', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), cuts, (bytes, positions) => {
        const whole = readAll([Buffer.from(bytes)]);
        expect(readAll(cutAt(Buffer.from(bytes), positions))).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});

const session = Buffer.from(
  'a001 login mrc secret\r\n' +
    'a002 select "&U,BTFw-"\r\n' +
    'a003 fetch 12:* (FLAGS BODY.PEEK[1.2.HEADER.FIELDS (From To)]<0.100> BINARY[2]) (CHANGEDSINCE 7)\r\n' +
    'a004 uid store 1:5,$ (UNCHANGEDSINCE 9) +FLAGS.SILENT (\\Deleted $Junk)\r\n' +
    'a005 search charset UTF-8 or subject {12+}\r\n季度报告 not (seen larger 100) since 1-Feb-1994\r\n' +
    'a006 append INBOX (\\Seen) " 1-Mar-2026 08:00:00 +0800" {5}\r\nhello\r\n' +
    'a007 logout\r\n',
  'utf8',
);

/** Runs each argument reader on a command; anything but ImapSyntaxError fails the test. */
function readArguments(command: ImapCommand): void {
  const readers: Record<string, (args: ImapValue[]) => unknown> = {
    FETCH: parseFetchArguments,
    'UID FETCH': parseFetchArguments,
    STORE: parseStoreArguments,
    'UID STORE': parseStoreArguments,
    SEARCH: parseSearchArguments,
    'UID SEARCH': parseSearchArguments,
    SELECT: (args) => decodeMailboxName(astringOf(args[0])),
    APPEND: (args) => parseInternalDate(astringOf(args[2])),
  };
  try {
    readers[command.command]?.(command.args);
  } catch (error) {
    if (!(error instanceof ImapSyntaxError)) throw error;
  }
}

describe('damaged sessions (test/support/mutations.ts)', () => {
  it('reads the valid session whole', () => {
    const events = readAll([session], {});
    expect(events.filter((event) => event.type === 'command')).toHaveLength(7);
    expect(events.filter((event) => event.type === 'bad')).toEqual([]);
    for (const event of events) if (event.type === 'command') readArguments(event.command);
  });

  it('gives commands or BADs whatever the damage, the same in any chunking, and argument readers refuse cleanly', () => {
    fc.assert(
      fc.property(mutationsOf(session), cuts, (bytes, positions) => {
        const whole = readAll([bytes], {});
        expect(readAll(cutAt(bytes, positions), {})).toEqual(whole);
        for (const event of whole) if (event.type === 'command') readArguments(event.command);
      }),
      { numRuns: 500 },
    );
  });
});

/** The value as the reader gives it back: text as bytes, whether it came quoted or literal. */
function readBack(value: ImapValue): unknown {
  switch (value.type) {
    case 'nil':
      return null;
    case 'atom':
      return { atom: value.value };
    case 'quoted':
      return Buffer.from(value.value, 'utf8');
    case 'literal':
      return value.value;
    case 'list':
      return value.items.map(readBack);
  }
}

function expected(data: ImapData): unknown {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (Array.isArray(data)) return data.map(expected);
  return data;
}

const atomText = fc
  .stringMatching(/^[A-Za-z0-9.:*$_-]{1,10}$/)
  .filter((text) => text.toUpperCase() !== 'NIL');
const data: fc.Arbitrary<ImapData> = fc.letrec<{ value: ImapData }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('', 'NIL', 'a\r\nb', '"\\', ' {3}', '收件箱'),
    fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes)),
    fc.constant(null),
    atomText.map((atom) => ({ atom })),
    fc.array(tie('value'), { maxLength: 4 }),
  ),
})).value;

describe('writer → reader round trips', () => {
  it('gives back strings, NIL, atoms, lists and literals', () => {
    fc.assert(
      fc.property(fc.array(data, { maxLength: 5 }), fc.boolean(), cuts, (values, utf8, positions) => {
        const pieces = values.flatMap((value) => [Buffer.from(' '), formatData(value, { utf8 })]);
        const line = Buffer.concat([Buffer.from('t1 X'), ...pieces, Buffer.from('\r\n')]);
        const events = readAll(cutAt(line, positions), { maxDepth: 16 }).filter(
          (event) => event.type !== 'continue',
        );
        expect(events).toHaveLength(1);
        const [event] = events;
        if (event?.type !== 'command') throw new Error(JSON.stringify(event));
        expect(event.command.args.map(readBack)).toEqual(values.map(expected));
      }),
      { numRuns: 400 },
    );
  });

  it('gives back mailbox names through modified UTF-7 and the wire', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (name) => {
        const encoded = encodeMailboxName(name);
        expect(encoded).toMatch(/^[\x20-\x7e]*$/);
        expect(decodeMailboxName(encoded)).toBe(name);
        const [event] = readAll(
          [Buffer.from(`t SELECT ${formatData(encoded).toString('latin1')}\r\n`, 'latin1')],
          {},
        );
        if (event?.type !== 'command') throw new Error(JSON.stringify(event));
        expect(decodeMailboxName(astringOf(event.command.args[0]))).toBe(name);
      }),
      { numRuns: 300 },
    );
  });

  it('gives back sequence sets', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 20 }), (numbers) => {
        const text = [...numbers].map(String).join(',');
        const set = parseSequenceSet(text);
        if (set === '$') throw new Error('not $');
        const covered = resolveSequenceSet(set, 60).flatMap(([from, to]) =>
          Array.from({ length: to - from + 1 }, (_, i) => from + i),
        );
        expect(covered).toEqual([...new Set(numbers)].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });
});

describe('argument readers on random text refuse cleanly', () => {
  it('throw nothing but ImapSyntaxError', () => {
    const text = fc.oneof(fc.string({ maxLength: 30 }), fc.stringMatching(/^[0-9:,*$&A-Za-z+\- -]{0,30}$/));
    fc.assert(
      fc.property(text, (value) => {
        for (const parse of [parseSequenceSet, decodeMailboxName, parseInternalDate, parseSearchDate]) {
          try {
            parse(value);
          } catch (error) {
            expect(error).toBeInstanceOf(ImapSyntaxError);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
