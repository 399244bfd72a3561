import { describe, expect, it } from 'vitest';
import { composeBounce } from './bounce-message.js';

describe('composeBounce', () => {
  const input = {
    reportingMta: 'mx.youju.test',
    sender: 'zhangsan@a.test',
    original: {
      messageId: '<m1@a.test>',
      subject: '你好',
      queuedAt: Date.UTC(2025, 0, 1),
      headers: Buffer.from('From: zhangsan@a.test\r\nSubject: =?UTF-8?B?5L2g5aW9?='),
    },
    recipients: [
      {
        rcpt: 'lisi@b.example',
        status: '5.1.1',
        reply: '550 5.1.1 用户不存在 <lisi@b.example>',
        remoteMta: 'mx.b.example',
        reason: '550 5.1.1 用户不存在 <lisi@b.example>',
        attempts: 1,
        lastAttemptAt: Date.UTC(2025, 0, 1, 0, 1),
      },
      {
        rcpt: 'nx@c.example',
        status: '5.1.2',
        reply: null,
        remoteMta: null,
        reason: '收件域名 c.example 不存在（DNS 查询无此域名）',
        attempts: 1,
        lastAttemptAt: Date.UTC(2025, 0, 1, 0, 1),
      },
    ],
    date: new Date(Date.UTC(2025, 0, 1, 0, 2)),
  };

  it('keeps the delivery-status part in US-ASCII and leaves out what no server said', () => {
    const text = composeBounce(input).bytes.toString('utf8');
    const report = text.slice(text.indexOf('Content-Type: message/delivery-status'));
    const fields = report.slice(0, report.indexOf('\r\n--'));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking for the absence of non-ASCII
    expect(fields).toMatch(/^[\x00-\x7f]*$/);
    expect(fields).toContain('Diagnostic-Code: smtp; 550 5.1.1 ????? <lisi@b.example>\r\n');
    expect(fields).toContain(
      'Final-Recipient: rfc822; nx@c.example\r\nAction: failed\r\nStatus: 5.1.2\r\nLast-Attempt-Date:',
    );
  });

  it('lines stay within RFC 5322 limits and end in CRLF', () => {
    const { bytes, messageId } = composeBounce({
      ...input,
      original: { ...input.original, subject: '很长的主题'.repeat(60) },
    });
    const text = bytes.toString('utf8');
    expect(messageId).toMatch(/^<[0-9a-f-]+@mx\.youju\.test>$/);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(998);
    expect(text).toMatch(/^From: =\?UTF-8\?B\?[^?]+\?= <MAILER-DAEMON@mx\.youju\.test>\r\n/);
  });
});
