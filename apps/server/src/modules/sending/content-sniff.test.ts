import { describe, expect, it } from 'vitest';
import { sniffContentType } from './content-sniff.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => Uint8Array.from(Buffer.from(value, 'latin1'));

describe('sniffContentType', () => {
  it('trusts magic bytes over the declared type', () => {
    expect(
      sniffContentType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), 'a.txt', 'text/plain'),
    ).toBe('image/png');
    expect(sniffContentType(text('%PDF-1.7\n'), 'x', 'application/octet-stream')).toBe('application/pdf');
    expect(sniffContentType(bytes(0xff, 0xd8, 0xff, 0xe0), 'photo', '')).toBe('image/jpeg');
    expect(sniffContentType(text('RIFF\0\0\0\0WEBPVP8 '), 'x', '')).toBe('image/webp');
    expect(sniffContentType(text('\0\0\0\x18ftypmp42'), 'x', '')).toBe('video/mp4');
  });

  it('tells office documents from plain ZIP and OLE2 by the declared type or extension', () => {
    const zip = bytes(0x50, 0x4b, 0x03, 0x04, 20, 0);
    expect(sniffContentType(zip, '报告.docx', 'application/octet-stream')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(sniffContentType(zip, 'archive.zip', '')).toBe('application/zip');
    const ole = bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
    expect(sniffContentType(ole, '旧表格.xls', '')).toBe('application/vnd.ms-excel');
  });

  it('falls back to a well-formed declared type, else octet-stream', () => {
    expect(sniffContentType(text('hello'), 'a.txt', 'text/plain; charset=utf-8')).toBe('text/plain');
    expect(sniffContentType(text('hello'), 'a', 'not a type')).toBe('application/octet-stream');
    expect(sniffContentType(new Uint8Array(), 'empty', undefined)).toBe('application/octet-stream');
  });
});
