import { describe, expect, it } from 'vitest';
import { bytesToMegabytes, formatBytes, megabytesToBytes } from './sizes';

describe('mailbox sizes', () => {
  it('reads bytes the way people do and converts MB both ways', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MB');
    expect(formatBytes(1024 ** 3)).toBe('1 GB');
    expect(formatBytes(250 * 1024 * 1024)).toBe('250 MB');
    expect(megabytesToBytes(1.5)).toBe(1572864);
    expect(bytesToMegabytes(1572864)).toBe(1.5);
  });
});
