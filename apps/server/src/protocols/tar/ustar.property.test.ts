import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt, mutationsOf } from '../../../test/support/mutations.js';
import { checkEntryPath, decodeHeader, encodeHeader, readTar, TarFormatError, writeTar } from './ustar.js';

const component = fc.stringMatching(/^[A-Za-z0-9_.-]{1,40}$/).filter((part) => part !== '.' && part !== '..');
const entryPath = fc.array(component, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
const entry = fc.record({
  path: entryPath,
  content: fc.uint8Array({ maxLength: 3000 }),
  mode: fc.constantFrom(0o600, 0o644, 0o400),
  mtime: fc.nat({ max: 8 ** 11 - 1 }),
});

async function archive(entries: Array<{ path: string; content: Uint8Array; mode: number; mtime: number }>) {
  const pieces: Buffer[] = [];
  const inputs = entries.map((e) => ({ ...e, size: e.content.length, content: [e.content] }));
  for await (const piece of writeTar(inputs)) pieces.push(piece);
  return Buffer.concat(pieces);
}

async function* chunks(parts: Buffer[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield part;
}

async function unpack(parts: Buffer[]) {
  const out: Array<{ path: string; content: Buffer; mode: number; mtime: number }> = [];
  for await (const found of readTar(chunks(parts))) {
    const pieces: Buffer[] = [];
    for await (const piece of found.content) pieces.push(piece);
    out.push({ path: found.path, content: Buffer.concat(pieces), mode: found.mode, mtime: found.mtime });
  }
  return out;
}

describe('ustar', () => {
  it('reads back what it wrote, however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (entries, cuts) => {
          const bytes = await archive(entries);
          expect(bytes.length % 512).toBe(0);
          const back = await unpack(cutAt(bytes, cuts));
          expect(back).toEqual(entries.map((e) => ({ ...e, content: Buffer.from(e.content) })));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('skips content the reader leaves unread', async () => {
    const bytes = await archive([
      { path: 'a', content: Buffer.alloc(1500, 1), mode: 0o600, mtime: 0 },
      { path: 'b', content: Buffer.from('second'), mode: 0o600, mtime: 0 },
    ]);
    const names: string[] = [];
    let second = '';
    for await (const found of readTar(chunks([bytes]))) {
      names.push(found.path);
      if (found.path === 'b') for await (const piece of found.content) second += piece.toString();
    }
    expect(names).toEqual(['a', 'b']);
    expect(second).toBe('second');
  });

  it('writes sizes from 8 GiB in base-256 and reads them back', () => {
    const size = 8 ** 11 + 12345;
    const header = encodeHeader({ path: 'big', size, mode: 0o600, mtime: 1 });
    expect(header[124]).toBe(0x80);
    expect(decodeHeader(header)?.size).toBe(size);
  });

  it('splits long names over prefix and name', () => {
    const path = `${'d'.repeat(90)}/${'e'.repeat(60)}/${'f'.repeat(90)}`;
    expect(decodeHeader(encodeHeader({ path, size: 0, mode: 0o600, mtime: 0 }))?.path).toBe(path);
  });

  it('refuses names that leave the folder', () => {
    for (const path of ['/etc/passwd', '../x', 'a/../../x', 'a//b', './a', '', 'a\\b', 'a/.']) {
      expect(() => checkEntryPath(path), path).toThrow(TarFormatError);
    }
  });

  it('refuses symbolic links, hard links and directories in an archive', async () => {
    for (const type of ['2', '1', '5', 'x', 'L']) {
      const header = encodeHeader({ path: 'link', size: 0, mode: 0o600, mtime: 0 });
      header[156] = type.charCodeAt(0);
      header.fill(0x20, 148, 156);
      let sum = 0;
      for (const byte of header) sum += byte;
      header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
      await expect(unpack([Buffer.concat([header, Buffer.alloc(1024)])])).rejects.toThrow(TarFormatError);
    }
  });

  it('refuses damaged archives with TarFormatError only, or reads what is intact', async () => {
    const valid = await archive([
      { path: 'database/youju.sqlite', content: Buffer.alloc(700, 7), mode: 0o600, mtime: 5 },
      { path: 'files/certs/mx/privkey.pem', content: Buffer.from('key'), mode: 0o600, mtime: 5 },
    ]);
    await fc.assert(
      fc.asyncProperty(mutationsOf(valid), async (damaged) => {
        try {
          const back = await unpack([damaged]);
          for (const found of back) checkEntryPath(found.path);
        } catch (error) {
          expect(error).toBeInstanceOf(TarFormatError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a content that does not match its declared size', async () => {
    const write = async () => {
      for await (const _ of writeTar([
        { path: 'a', size: 3, mode: 0o600, mtime: 0, content: [Buffer.from('ab')] },
      ])) {
        // drained
      }
    };
    await expect(write()).rejects.toThrow(TarFormatError);
  });
});
