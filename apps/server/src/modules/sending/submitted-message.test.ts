import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationsOf } from '../../../test/support/mutations.js';
import { readSubmittedMessage } from './submitted-message.js';

describe('readSubmittedMessage (RFC 6409 section 8)', () => {
  let directory: string;
  let count = 0;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'youju-submitted-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  async function read(message: string | Buffer) {
    const path = join(directory, `${count++}.eml`);
    const bytes = Buffer.from(message);
    await writeFile(path, bytes);
    const submitted = await readSubmittedMessage(
      path,
      bytes.length,
      'submit.test',
      new Date(Date.UTC(2026, 10, 25, 2, 3, 4)),
    );
    return { ...submitted, output: await text(submitted.open()) };
  }

  it('removes Bcc (folded too), adds Message-ID and Date, keeps the body byte for byte', async () => {
    const body = '正文第一行\r\n\r\n.第三行\r\n';
    const result = await read(
      `From: =?UTF-8?B?5byg5LiJ?= <ZhangSan@Submit.test>\r\nTo: lisi@submit.test\r\nBcc: hidden@x.test,\r\n  other@y.test\r\nSubject: hi\r\n\r\n${body}`,
    );
    expect(result.from).toEqual(['zhangsan@submit.test']);
    expect(result.output).not.toMatch(/bcc|hidden|other@y/i);
    expect(result.output).toMatch(/^Message-ID: <[0-9a-f-]+@submit\.test>\r\n/);
    expect(result.output).toContain('Date: Wed, 25 Nov 2026 02:03:04 +0000\r\n');
    expect(result.output.endsWith(`\r\n\r\n${body}`)).toBe(true);
    expect(result.messageId).toMatch(/@submit\.test>$/);
  });

  it('keeps the client’s own Message-ID and Date, reads groups and several From fields', async () => {
    const result = await read(
      'From: Team: a@x.test, b@y.test;\r\nFrom: c@z.test\r\nMessage-ID: <own@client>\r\nDate: Tue, 24 Nov 2026 10:00:00 +0800\r\n\r\nx',
    );
    expect(result.from).toEqual(['a@x.test', 'b@y.test', 'c@z.test']);
    expect(result.messageId).toBe('<own@client>');
    expect(result.output.match(/^Message-ID:/gim)).toHaveLength(1);
    expect(result.output.match(/^Date:/gim)).toHaveLength(1);
  });

  it('takes a message without a body or a blank line as all header', async () => {
    const result = await read('From: a@x.test\r\nSubject: only a header');
    expect(result.from).toEqual(['a@x.test']);
    expect(result.output.endsWith('Subject: only a header\r\n\r\n')).toBe(true);
  });

  it('never throws on damaged input', async () => {
    const valid = Buffer.from('From: a@x.test\r\nBcc: b@x.test\r\nSubject: s\r\n\r\nbody\r\n');
    await fc.assert(
      fc.asyncProperty(mutationsOf(valid), async (bytes) => {
        const result = await read(bytes);
        expect(Array.isArray(result.from)).toBe(true);
        expect(result.output.length).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });
});
