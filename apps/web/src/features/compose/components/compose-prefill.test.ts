import type { DraftDetail, MailDetail } from '@youju/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../../lib/i18n';
import { fromDraft, isEmailAddress, prefill } from './compose-prefill';

const original: MailDetail = {
  id: 7,
  address: 'me@mine.test',
  from: { name: '王五', address: 'wangwu@other.test' },
  subject: '周报',
  snippet: '',
  receivedAt: '2026-01-02T03:04:05.000Z',
  read: true,
  starred: false,
  spam: false,
  hasAttachments: false,
  code: null,
  auth: { spf: 'none', dkim: 'none', dmarc: 'none' },
  size: 10,
  to: [
    { name: '', address: 'me@mine.test' },
    { name: '赵六', address: 'zhaoliu@other.test' },
  ],
  cc: [{ name: '', address: 'Wangwu@other.test' }],
  html: null,
  text: '第一行\n<第二行>',
  messageId: '<m1@other.test>',
  attachments: [],
};

afterEach(async () => {
  await setLocale('zh-CN');
  localStorage.clear();
});

describe('compose prefill', () => {
  it('answers the sender from the address the mail came in on, threaded and quoted', () => {
    const values = prefill('reply', original, ['me@mine.test', 'alt@mine.test'], 'alt@mine.test');
    expect(values).toMatchObject({
      from: 'me@mine.test',
      to: ['wangwu@other.test'],
      cc: [],
      subject: 'Re: 周报',
      inReplyTo: '<m1@other.test>',
    });
    expect(values.html).toContain('第一行<br>&lt;第二行&gt;');
    expect(prefill('reply', { ...original, subject: '回复：周报' }, [], 'x@y.test').subject).toBe(
      '回复：周报',
    );
  });

  it('answers everyone except ourselves and without duplicates', () => {
    const values = prefill('replyAll', original, ['me@mine.test'], 'me@mine.test');
    expect(values.to).toEqual(['wangwu@other.test']);
    expect(values.cc).toEqual(['zhaoliu@other.test']);
  });

  it('forwards with the original header lines and no recipients', () => {
    const values = prefill('forward', original, ['me@mine.test'], 'me@mine.test');
    expect(values.to).toEqual([]);
    expect(values.subject).toBe('Fwd: 周报');
    expect(values.html).toContain('发件人：王五 &lt;wangwu@other.test&gt;');
    expect(values.inReplyTo).toBeUndefined();
  });

  it('writes the forward header and the quote line in the interface language', async () => {
    await setLocale('en');
    const forward = prefill('forward', original, ['me@mine.test'], 'me@mine.test').html;
    expect(forward).toContain('---------- Forwarded message ----------');
    expect(forward).toContain('From: 王五 &lt;wangwu@other.test&gt;');
    expect(forward).toContain('Subject: 周报');
    const reply = prefill('reply', original, ['me@mine.test'], 'me@mine.test').html;
    expect(reply).toMatch(/On [^<]+, 王五 &lt;wangwu@other\.test&gt; wrote:/);
    expect(reply).not.toContain('写道');
  });

  it('puts the signature under the blank first line, above any quote', () => {
    const signature = '张三\r\n市场部 <电话 123>';
    const block = '<p>-- <br>张三<br>市场部 &lt;电话 123&gt;</p>';
    expect(prefill('new', undefined, [], 'me@mine.test', signature).html).toBe(`<p><br></p>${block}`);
    const reply = prefill('reply', original, ['me@mine.test'], 'me@mine.test', signature).html;
    expect(reply.startsWith(`<p><br></p>${block}`)).toBe(true);
    expect(reply.indexOf(block)).toBeLessThan(reply.indexOf('写道'));
    expect(prefill('new', undefined, [], 'me@mine.test', '  ').html).toBe('');
  });

  it('validates addresses as people type them', () => {
    expect(isEmailAddress('zhang.san+tag@example.com')).toBe(true);
    expect(isEmailAddress('张三@例子.中国')).toBe(true);
    for (const bad of ['zhangsan', 'a@b', 'a b@c.com', 'a@@c.com', '<a@c.com>'])
      expect(isEmailAddress(bad)).toBe(false);
  });
});

describe('fromDraft', () => {
  const draft: DraftDetail = {
    id: 9,
    address: 'me@mine.test',
    from: 'me@mine.test',
    to: ['a@other.test'],
    cc: [],
    bcc: ['b@other.test'],
    subject: '草稿',
    html: '<p>正文<img src="x" onerror="alert(1)"></p>',
    text: null,
    attachments: [],
    inReplyTo: '<thread@other.test>',
    savedAt: '2026-01-02T03:04:05.000Z',
  };

  it('restores every field and sanitises the HTML again before the editor takes it', () => {
    const values = fromDraft(draft);
    expect(values).toMatchObject({
      from: 'me@mine.test',
      to: ['a@other.test'],
      bcc: ['b@other.test'],
      subject: '草稿',
      inReplyTo: '<thread@other.test>',
    });
    expect(values.html).toContain('正文');
    expect(values.html).not.toContain('onerror');
  });

  it('turns a plain-text draft (from a mail client) into escaped paragraphs', () => {
    const values = fromDraft({ ...draft, html: null, text: '第一行\n<b>第二行</b>', inReplyTo: null });
    expect(values.html).toBe('<p>第一行<br>&lt;b&gt;第二行&lt;/b&gt;</p>');
    expect(values.inReplyTo).toBeUndefined();
  });
});
