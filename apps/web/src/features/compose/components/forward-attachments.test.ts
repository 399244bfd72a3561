import type { MailDetail } from '@youju/contract';
import { describe, expect, it } from 'vitest';
import { fetchForwardedFiles, forwardableAttachments } from './forward-attachments';

const attachment = (id: string, filename: string, inline?: boolean) => ({
  id,
  filename,
  contentType: 'application/pdf',
  size: 3,
  ...(inline === undefined ? {} : { inline }),
});

describe('forwarding the original attachments', () => {
  it('carries the files but not the images inside the body', () => {
    const original = {
      attachments: [
        attachment('a', '合同.pdf'),
        attachment('b', 'logo.png', true),
        attachment('c', '', false),
      ],
    } as MailDetail;
    expect(forwardableAttachments(original).map((item) => item.id)).toEqual(['a', 'c']);
    expect(forwardableAttachments(undefined)).toEqual([]);
  });

  it('hands each on as a named file in order and reports a failure while the rest still come', async () => {
    const files: File[] = [];
    const failures: string[] = [];
    await fetchForwardedFiles(
      [attachment('a', '合同.pdf'), attachment('bad', '报价.xlsx'), attachment('c', '')],
      async (id) => {
        if (id === 'bad') throw new Error('附件不存在');
        return new Blob([id]);
      },
      (file) => files.push(file),
      (_item, message) => failures.push(message),
    );
    expect(files.map((file) => [file.name, file.type])).toEqual([
      ['合同.pdf', 'application/pdf'],
      ['附件', 'application/pdf'],
    ]);
    expect(failures).toEqual(['原邮件的附件“报价.xlsx”添加失败：附件不存在']);
  });
});
