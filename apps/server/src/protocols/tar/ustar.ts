/**
 * The POSIX ustar archive format (POSIX.1-2001, "pax" section, ustar interchange format), for
 * regular files only: 512-byte headers, contents padded to 512 bytes, two zero blocks at the end.
 * Sizes of 8 GiB and more are written in the base-256 form GNU tar and star read (the first byte
 * of the size field has its high bit set), since a database snapshot can be that large.
 *
 * The reader accepts regular files and nothing else: directories, symbolic and hard links,
 * devices and pax/GNU extension headers are refused with {@link TarFormatError}, and so is a name
 * that is absolute, empty, or has a `.` or `..` component (an archive must never reach outside the
 * folder it is unpacked into).
 */

const BLOCK = 512;
const MAX_OCTAL_SIZE = 8 ** 11 - 1;
/** the largest size the reader accepts: what a JavaScript number counts exactly */
const MAX_SIZE = Number.MAX_SAFE_INTEGER;

export class TarFormatError extends Error {}

export interface TarHeader {
  /** relative path with `/` separators */
  path: string;
  size: number;
  /** permission bits */
  mode: number;
  /** modification time, epoch seconds */
  mtime: number;
}

/** Throws unless `path` is a relative path of plain components (no `.`, `..`, empty or NUL). */
export function checkEntryPath(path: string): void {
  if (path.length === 0 || path.startsWith('/') || path.includes('\\') || path.includes('\0')) {
    throw new TarFormatError(`unsafe entry name: ${JSON.stringify(path)}`);
  }
  for (const part of path.split('/')) {
    if (part === '' || part === '.' || part === '..') {
      throw new TarFormatError(`unsafe entry name: ${JSON.stringify(path)}`);
    }
  }
}

function writeString(block: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new TarFormatError(`field too long: ${value}`);
  bytes.copy(block, offset);
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  // length - 1 digits and a NUL
  writeString(block, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

/** Splits a path over the ustar `prefix` (155 bytes) and `name` (100 bytes) fields at a `/`. */
function splitPath(path: string): { prefix: string; name: string } {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path };
  const parts = path.split('/');
  for (let at = 1; at < parts.length; at++) {
    const prefix = parts.slice(0, at).join('/');
    const name = parts.slice(at).join('/');
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  throw new TarFormatError(`entry name too long for ustar: ${path}`);
}

/** The 512-byte header of a regular file. */
export function encodeHeader(header: TarHeader): Buffer {
  checkEntryPath(header.path);
  if (!Number.isSafeInteger(header.size) || header.size < 0) throw new TarFormatError('bad size');
  const block = Buffer.alloc(BLOCK);
  const { prefix, name } = splitPath(header.path);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, header.mode & 0o7777);
  writeOctal(block, 108, 8, 0); // uid
  writeOctal(block, 116, 8, 0); // gid
  if (header.size <= MAX_OCTAL_SIZE) {
    writeOctal(block, 124, 12, header.size);
  } else {
    // base-256: high bit of the first byte set, the value big-endian in the rest
    block[124] = 0x80;
    let rest = BigInt(header.size);
    for (let at = 135; at > 124; at--) {
      block[at] = Number(rest & 0xffn);
      rest >>= 8n;
    }
  }
  // 11 octal digits reach the year 2242; later times are written as that
  writeOctal(block, 136, 12, Math.min(MAX_OCTAL_SIZE, Math.max(0, Math.floor(header.mtime))));
  block.fill(0x20, 148, 156); // checksum counted as spaces
  block[156] = 0x30; // '0': regular file
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeString(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** Zero bytes that pad a content of `size` bytes to a whole block. */
export function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

/** The end of an archive: two zero blocks. */
export function endOfArchive(): Buffer {
  return Buffer.alloc(2 * BLOCK);
}

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, offset: number, length: number, what: string): number {
  const text = readString(block, offset, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarFormatError(`bad ${what} field`);
  const value = Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value)) throw new TarFormatError(`bad ${what} field`);
  return value;
}

function readSize(block: Buffer): number {
  const first = block[124] ?? 0;
  if ((first & 0x80) === 0) return readOctal(block, 124, 12, 'size');
  if (first !== 0x80) throw new TarFormatError('bad size field');
  let value = 0n;
  for (let at = 125; at < 136; at++) value = (value << 8n) | BigInt(block[at] ?? 0);
  if (value > BigInt(MAX_SIZE)) throw new TarFormatError('entry too large');
  return Number(value);
}

/**
 * Decodes a header block; null for a zero block (the end of the archive). Checks the checksum,
 * the magic, the type (regular files only) and the name.
 */
export function decodeHeader(block: Buffer): TarHeader | null {
  if (block.length !== BLOCK) throw new TarFormatError('truncated header');
  if (block.every((byte) => byte === 0)) return null;
  const stored = readOctal(block, 148, 8, 'checksum');
  let sum = 0;
  for (let at = 0; at < BLOCK; at++) sum += at >= 148 && at < 156 ? 0x20 : (block[at] ?? 0);
  if (sum !== stored) throw new TarFormatError('header checksum mismatch');
  if (readString(block, 257, 6) !== 'ustar') throw new TarFormatError('not a ustar archive');
  const type = block[156];
  if (type !== 0x30 && type !== 0) {
    throw new TarFormatError(
      `entry type ${JSON.stringify(String.fromCharCode(type ?? 0))} refused: regular files only`,
    );
  }
  const name = readString(block, 0, 100);
  const prefix = readString(block, 345, 155);
  const path = prefix ? `${prefix}/${name}` : name;
  checkEntryPath(path);
  return {
    path,
    size: readSize(block),
    mode: readOctal(block, 100, 8, 'mode'),
    mtime: readOctal(block, 136, 12, 'mtime'),
  };
}

/** Reads exact byte counts from a stream of chunks of any size. */
class ByteReader {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private done = false;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  private async fill(): Promise<boolean> {
    if (this.done) return false;
    const next = await this.source.next();
    if (next.done) {
      this.done = true;
      return false;
    }
    const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    if (chunk.length > 0) {
      this.buffered.push(chunk);
      this.bufferedBytes += chunk.length;
    }
    return true;
  }

  /** exactly `count` bytes, or a TarFormatError when the stream ends first */
  async exactly(count: number): Promise<Buffer> {
    while (this.bufferedBytes < count) {
      if (!(await this.fill())) throw new TarFormatError('archive truncated');
    }
    return this.take(count);
  }

  /** between 1 and `max` bytes (what is at hand), or a TarFormatError when the stream ends */
  async some(max: number): Promise<Buffer> {
    while (this.bufferedBytes === 0) {
      if (!(await this.fill())) throw new TarFormatError('archive truncated');
    }
    return this.take(Math.min(max, this.bufferedBytes));
  }

  private take(count: number): Buffer {
    const parts: Buffer[] = [];
    let needed = count;
    while (needed > 0) {
      const head = this.buffered[0] as Buffer;
      if (head.length <= needed) {
        parts.push(head);
        this.buffered.shift();
        needed -= head.length;
      } else {
        parts.push(head.subarray(0, needed));
        this.buffered[0] = head.subarray(needed);
        needed = 0;
      }
    }
    this.bufferedBytes -= count;
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }
}

export interface TarEntry extends TarHeader {
  /** the content, in pieces; read it to the end before asking for the next entry */
  content: AsyncGenerator<Buffer>;
}

/**
 * The entries of an archive, one at a time, with their contents streamed. Content left unread is
 * skipped when the next entry is asked for. Ends at the two zero blocks; a stream that ends
 * before them is truncated (TarFormatError).
 */
export async function* readTar(source: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  for (;;) {
    const header = decodeHeader(await reader.exactly(BLOCK));
    if (header === null) {
      // the second zero block
      const second = await reader.exactly(BLOCK);
      if (!second.every((byte) => byte === 0)) throw new TarFormatError('damaged end of archive');
      return;
    }
    let remaining = header.size;
    async function* content(): AsyncGenerator<Buffer> {
      while (remaining > 0) {
        const piece = await reader.some(Math.min(remaining, 1 << 20));
        remaining -= piece.length;
        yield piece;
      }
    }
    const body = content();
    yield { ...header, content: body };
    // what the consumer left unread
    for await (const _ of body) {
      // skipped
    }
    while (remaining > 0) remaining -= (await reader.some(remaining)).length;
    const pad = padding(header.size).length;
    if (pad > 0) await reader.exactly(pad);
  }
}

export interface TarInput extends TarHeader {
  content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/**
 * An archive of `entries`, as a stream of pieces (for `stream.pipeline`). A content longer or
 * shorter than its declared size is an error: the archive would be damaged from there on.
 */
export async function* writeTar(
  entries: AsyncIterable<TarInput> | Iterable<TarInput>,
): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    yield encodeHeader(entry);
    let written = 0;
    for await (const piece of entry.content) {
      written += piece.byteLength;
      if (written > entry.size) throw new TarFormatError(`${entry.path} grew while it was archived`);
      yield Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    }
    if (written !== entry.size) throw new TarFormatError(`${entry.path} shrank while it was archived`);
    const pad = padding(entry.size);
    if (pad.length > 0) yield pad;
  }
  yield endOfArchive();
}
