import { describe, expect, it } from 'vitest';
import { bytesToMegabytes, formatBytes, megabytesToBytes } from './bytes';

const MB = 1024 * 1024;

describe('formatBytes', () => {
  it('writes the stored total with up to two decimals, up to TB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512 * 1024)).toBe('512 KB');
    expect(formatBytes(1.5 * 1024 * MB)).toBe('1.5 GB');
    expect(formatBytes(1.25 * MB)).toBe('1.25 MB');
    expect(formatBytes(2 * 1024 ** 4)).toBe('2 TB');
  });

  it('writes mailbox usage with up to one decimal', () => {
    expect(formatBytes(0, 'account')).toBe('0 B');
    expect(formatBytes(1536, 'account')).toBe('1.5 KB');
    expect(formatBytes(12.3 * MB, 'account')).toBe('12.3 MB');
    expect(formatBytes(1024 ** 3, 'account')).toBe('1 GB');
    expect(formatBytes(250 * MB, 'account')).toBe('250 MB');
  });

  it('keeps the forms of compose, the reading pane, the sent details and card quotas', () => {
    expect([980, 12 * 1024 + 300, 1.5 * MB].map((bytes) => formatBytes(bytes, 'upload'))).toEqual([
      '980 B',
      '12 KB',
      '1.5 MB',
    ]);
    expect([980, 12 * 1024, 1.5 * MB].map((bytes) => formatBytes(bytes, 'received'))).toEqual([
      '980 字节',
      '12.0 KB',
      '1.5 MB',
    ]);
    expect([10, 3 * 1024, 1.5 * MB].map((bytes) => formatBytes(bytes, 'sent'))).toEqual([
      '1 KB',
      '3 KB',
      '1.5 MB',
    ]);
    expect(formatBytes(1024 * MB, 'wholeMegabytes')).toBe('1024 MB');
  });
});

describe('megabytes in forms', () => {
  it('converts both ways', () => {
    expect(megabytesToBytes(1.5)).toBe(1572864);
    expect(bytesToMegabytes(1572864)).toBe(1.5);
  });
});
