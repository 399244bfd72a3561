import { describe, expect, it } from 'vitest';
import { htmlToPlainText } from './plain-text.js';

describe('htmlToPlainText', () => {
  it('keeps paragraphs, line breaks, lists and link targets; drops scripts and styles', () => {
    const html = `<html><head><style>p{color:red}</style><title>t</title></head><body>
      <p>你好，<b>世界</b></p><script>alert(1)</script>
      <p>第一行<br>第二行</p>
      <ul><li>甲</li><li>乙</li></ul>
      <p><a href="https://example.com/a?b=1&amp;c=2">说明</a> 与 <a href="https://x.test/">https://x.test/</a></p>
      <p>&lt;标签&gt; &amp; &#x4E2D;&#25991;&nbsp;空格</p></body></html>`;
    expect(htmlToPlainText(html)).toBe(
      '你好，世界\n\n第一行\n第二行\n\n- 甲\n- 乙\n\n说明 (https://example.com/a?b=1&c=2) 与 https://x.test/\n\n<标签> & 中文 空格',
    );
  });

  it('never keeps javascript: targets', () => {
    expect(htmlToPlainText('<a href="javascript:alert(1)">点我</a>')).toBe('点我');
  });
});
