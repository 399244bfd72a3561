import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

describe('parseMarkdown', () => {
  it('reads headings, lists, paragraphs and code', () => {
    const blocks = parseMarkdown(
      '# 更新日志\n\n## 0.1.0\n- 第一条 `code`\n- **加粗**说明\n\n正文一\n正文二\n\n```\nnpm start\n```\n1. 甲\n2. 乙',
    );
    expect(blocks.map((block) => block.kind)).toEqual([
      'heading',
      'heading',
      'list',
      'paragraph',
      'code',
      'list',
    ]);
    expect(blocks[2]).toMatchObject({ kind: 'list', ordered: false });
    expect(blocks[3]).toEqual({ kind: 'paragraph', children: [{ kind: 'text', text: '正文一 正文二' }] });
    expect(blocks[4]).toEqual({ kind: 'code', text: 'npm start' });
    expect(blocks[5]).toMatchObject({ kind: 'list', ordered: true });
  });

  it('keeps only safe links and never produces markup from text', () => {
    expect(parseInline('[文档](https://example.com) 与 [坏](javascript:alert(1))')).toEqual([
      { kind: 'link', href: 'https://example.com', children: [{ kind: 'text', text: '文档' }] },
      { kind: 'text', text: ' 与 ' },
      { kind: 'text', text: '[坏](javascript:alert(1)' },
      { kind: 'text', text: ')' },
    ]);
    expect(parseInline('<script>alert(1)</script>')).toEqual([
      { kind: 'text', text: '<script>alert(1)</script>' },
    ]);
  });
});
