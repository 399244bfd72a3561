import { describe, expect, it } from 'vitest';
import { sanitizeMailHtml } from './html-sanitizer.js';

const clean = (html: string) =>
  sanitizeMailHtml(html, (cid) => (cid === 'logo@x' ? '/api/user/attachment/7-0' : null));

describe('sanitizeMailHtml', () => {
  it('removes scripts, handlers, forms, frames and javascript: links', () => {
    const out = clean(
      '<p onclick="alert(1)">hi<script>alert(2)</script></p><a href="javascript:alert(3)">x</a>' +
        '<iframe src="https://evil"></iframe><form action="https://evil"><input name="p"></form>' +
        '<object data="x"></object><embed src="y"><svg onload="alert(4)"></svg><img src=x onerror="alert(5)">',
    );
    expect(out).not.toMatch(
      /script|onclick|onerror|onload|javascript:|iframe|<form|<input|object|embed|svg/i,
    );
    expect(out).toContain('<p>hi</p>');
  });
  it('disarms remote images and rewrites cid: images', () => {
    const out = clean(
      '<img src="https://tracker.example/p.gif" alt="t"><img src="cid:logo@x"><img src="cid:missing">',
    );
    expect(out).toContain('data-remote-src="https://tracker.example/p.gif"');
    expect(out).not.toMatch(/ src="https:/);
    expect(out).toContain('src="/api/user/attachment/7-0"');
  });
  it('keeps links safe and styles without remote fetches', () => {
    const out = clean(
      '<a href="https://example.com">ok</a><div style="background:url(https://t.example/x.png)">a</div>',
    );
    expect(out).toContain('href="https://example.com"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
    expect(out).not.toContain('t.example');
  });
});
