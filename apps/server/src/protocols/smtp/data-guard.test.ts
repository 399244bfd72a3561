import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DataGuard } from './data-guard.js';

async function run(chunks: string[], limits = { maxBytes: 1000, maxLineBytes: 100, maxHeaderBytes: 200 }) {
  const guard = new DataGuard(limits);
  const out: Buffer[] = [];
  guard.on('data', (chunk: Buffer) => out.push(chunk));
  await new Promise<void>((resolve, reject) => {
    Readable.from(chunks.map((c) => Buffer.from(c, 'binary')))
      .pipe(guard)
      .on('finish', resolve)
      .on('error', reject);
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { violation: guard.violation, output: Buffer.concat(out).toString('binary'), bytes: guard.bytes };
}

describe('DataGuard', () => {
  it('passes well-formed CRLF mail through unchanged, across chunk boundaries', async () => {
    const result = await run(['Subject: hi\r', '\n\r\nbody line\r\n', 'second\r\n']);
    expect(result.violation).toBeNull();
    expect(result.output).toBe('Subject: hi\r\n\r\nbody line\r\nsecond\r\n');
  });
  it('takes bare LF as a line end and stores it as CRLF, across chunk boundaries', async () => {
    const result = await run([
      'Subject: lf\n\nline one\n',
      'line two\r',
      '\nline three\n',
      '\n..not a dot line\n',
    ]);
    expect(result.violation).toBeNull();
    expect(result.output).toBe(
      'Subject: lf\r\n\r\nline one\r\nline two\r\nline three\r\n\r\n..not a dot line\r\n',
    );
    // a lone "." line between CRLFs is content smtp-server unstuffed from ".." and is kept
    expect((await run(['a\r\n.\r\nb\r\n'])).violation).toBeNull();
  });
  it('refuses bare CR and the six smuggling sequences', async () => {
    expect((await run(['a\rb\r\n'])).violation).toBe('bare-line-break');
    expect((await run(['ends with cr\r'])).violation).toBe('bare-line-break');
    for (const sequence of ['\n.\n', '\n.\r\n', '\r\n.\n', '\r.\r', '\r\n.\r', '\n.\r']) {
      expect((await run([`x\r\n${sequence}MAIL FROM:<a@b>\r\n`])).violation).toBe('bare-line-break');
      // split at every position, since a chunk boundary must not hide it
      for (let cut = 1; cut < sequence.length; cut++) {
        const chunks = [`x\r\n${sequence.slice(0, cut)}`, `${sequence.slice(cut)}MAIL FROM:<a@b>\r\n`];
        expect((await run(chunks)).violation).toBe('bare-line-break');
      }
    }
  });
  it('counts size and keeps draining past the limit', async () => {
    const result = await run([
      'h: v\r\n\r\n',
      'x'.repeat(90),
      '\r\n',
      ...Array(20).fill(`${'y'.repeat(90)}\r\n`),
    ]);
    expect(result.violation).toBe('too-big');
    expect(result.bytes).toBe(8 + 92 + 20 * 92);
  });
  it('limits line length and header size', async () => {
    expect((await run([`h: ${'v'.repeat(120)}\r\n\r\n`])).violation).toBe('line-too-long');
    expect((await run([`${'h: vvvvv\r\n'.repeat(30)}\r\nbody\r\n`])).violation).toBe('header-too-large');
    expect((await run([`h: v\r\n\r\n${'b: vvvvv\r\n'.repeat(30)}`])).violation).toBeNull();
  });
});
