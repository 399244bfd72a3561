import { Blob as NodeBlob } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { readFileText } from './read-file-text';

// jsdom's Blob has no arrayBuffer(); browsers' and Node's do.
const file = (bytes: number[]) => new NodeBlob([new Uint8Array(bytes)]) as unknown as Blob;

describe('reading a picked CSV file', () => {
  it('takes UTF-8 as it is and falls back to GB18030, what Excel on Chinese Windows writes', async () => {
    const utf8 = file([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('邮箱地址,备注')]);
    expect(await readFileText(utf8)).toBe('邮箱地址,备注');
    // 邮箱 in GBK: D3 CA CF E4
    expect(await readFileText(file([0xd3, 0xca, 0xcf, 0xe4, 0x2c, 0x61]))).toBe('邮箱,a');
  });
});
