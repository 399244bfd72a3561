import { describe, expect, it } from 'vitest';
import { buildMailSrcdoc, MAIL_FRAME_SANDBOX, mailContentSecurityPolicy } from './mail-srcdoc';

function parse(srcdoc: string): Document {
  return new DOMParser().parseFromString(srcdoc, 'text/html');
}

const hostile = [
  '<p onclick="alert(1)">你好</p>',
  '<script>window.parent.document.title = "pwned"</script>',
  '<img src="x" onerror="fetch(\'http://127.0.0.1:1/leak\')">',
  '<body onload="alert(2)"><div>正文</div></body>',
  '<a href="javascript:alert(3)">点我</a>',
  '<a href="https://example.com/ok">链接</a>',
  '<iframe src="https://evil.example/"></iframe>',
  '<svg><script>alert(4)</script><image href="https://evil.example/s.png"/></svg>',
  '<form action="https://evil.example/"><input name="q"><button>提交</button></form>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<table background="https://evil.example/bg.png"><tr><td>表格</td></tr></table>',
  '<img srcset="https://evil.example/1x.png 1x">',
].join('\n');

describe('buildMailSrcdoc', () => {
  it('puts a strict content security policy first in the document', () => {
    const { srcdoc } = buildMailSrcdoc('<p>你好</p>', { showRemoteImages: false });
    const doc = parse(srcdoc);
    const meta = doc.head.querySelector('meta[http-equiv="Content-Security-Policy"]');
    const policy = meta?.getAttribute('content') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain('img-src data:;');
    expect(policy).toContain("style-src 'unsafe-inline'");
    expect(policy).not.toMatch(/script-src|https:|http:/);
    expect(srcdoc.indexOf('Content-Security-Policy')).toBeLessThan(srcdoc.indexOf('<body>'));
    expect(doc.body.textContent).toContain('你好');
  });

  it('widens only img-src once the reader allows images', () => {
    expect(mailContentSecurityPolicy(true)).toContain('img-src data: https: http:');
    expect(mailContentSecurityPolicy(true)).toContain("default-src 'none'");
    const { srcdoc } = buildMailSrcdoc('<p>x</p>', { showRemoteImages: true });
    expect(srcdoc).toContain('img-src data: https: http:');
  });

  it('strips scripts, handlers, frames, forms and javascript: links even if the server missed them', () => {
    const { srcdoc } = buildMailSrcdoc(hostile, { showRemoteImages: false });
    const doc = parse(srcdoc);
    expect(
      doc.querySelectorAll('script, iframe, svg, form, input, button, link, object, embed'),
    ).toHaveLength(0);
    expect(doc.head.querySelectorAll('meta[http-equiv="refresh"]')).toHaveLength(0);
    for (const element of Array.from(doc.querySelectorAll('*'))) {
      for (const attribute of Array.from(element.attributes)) {
        expect(attribute.name.startsWith('on'), `${element.tagName} ${attribute.name}`).toBe(false);
        expect(attribute.value).not.toMatch(/javascript:/i);
      }
    }
    expect(srcdoc).not.toMatch(/alert|pwned|<script/i);
    expect(srcdoc).not.toContain('evil.example');
    const links = Array.from(doc.body.querySelectorAll('a'));
    expect(links.map((link) => link.getAttribute('href'))).toEqual([null, 'https://example.com/ok']);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
    expect(doc.body.textContent).toContain('正文');
    expect(doc.body.textContent).toContain('表格');
  });

  it('blocks remote images until allowed, then restores their address', () => {
    const html =
      '<p>图</p><img data-remote-src="https://img.example/a.png" data-blocked="remote" alt="a">' +
      '<img src="http://missed.example/b.png" alt="b">';
    const blocked = buildMailSrcdoc(html, { showRemoteImages: false });
    expect(blocked.remoteImages).toBe(2);
    const blockedDoc = parse(blocked.srcdoc);
    for (const image of Array.from(blockedDoc.querySelectorAll('img'))) {
      expect(image.hasAttribute('src')).toBe(false);
      expect(image.getAttribute('data-blocked')).toBe('remote');
    }
    expect(blocked.srcdoc).not.toMatch(/\ssrc="https?:/);

    const shown = buildMailSrcdoc(html, { showRemoteImages: true });
    const sources = Array.from(parse(shown.srcdoc).querySelectorAll('img')).map((image) =>
      image.getAttribute('src'),
    );
    expect(sources).toEqual(['https://img.example/a.png', 'http://missed.example/b.png']);
  });

  it('shows inline images as data: URLs only, never with the attachment address', () => {
    const url = '/api/user/attachment/7-1';
    const html = `<img src="${url}" data-cid-src="${url}" alt="logo"><img src="/elsewhere.png">`;
    const pending = buildMailSrcdoc(html, { showRemoteImages: false });
    expect(pending.inlineImageUrls).toEqual([url]);
    expect(pending.remoteImages).toBe(0);
    expect(parse(pending.srcdoc).querySelectorAll('img[src]')).toHaveLength(0);

    const data = 'data:image/png;base64,iVBORw0KGgo=';
    const loaded = buildMailSrcdoc(html, { showRemoteImages: false, inlineImages: new Map([[url, data]]) });
    const images = Array.from(parse(loaded.srcdoc).querySelectorAll('img'));
    expect(images[0]?.getAttribute('src')).toBe(data);
    expect(images[1]?.hasAttribute('src')).toBe(false);
  });

  it('keeps layout styles of the message', () => {
    const { srcdoc } = buildMailSrcdoc(
      '<style>.a{color:red}</style><div class="a" style="color:blue">样式</div>',
      {
        showRemoteImages: false,
      },
    );
    const doc = parse(srcdoc);
    expect(doc.body.querySelector('style')?.textContent).toContain('.a{color:red}');
    expect(doc.body.querySelector('.a')?.getAttribute('style')).toBe('color:blue');
  });

  it('never lets the frame run scripts, submit forms or navigate the page', () => {
    const flags = MAIL_FRAME_SANDBOX.split(' ');
    // allow-same-origin is there for the reader to measure the frame from outside; with allow-scripts
    // beside it the message could lift its own sandbox, so the two must never meet.
    expect(flags).toContain('allow-same-origin');
    for (const flag of flags) {
      expect(flag).not.toMatch(/^allow-(?:scripts|top-navigation.*|forms|modals|pointer-lock|downloads)$/);
    }
  });
});
