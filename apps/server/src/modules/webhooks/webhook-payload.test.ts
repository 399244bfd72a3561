import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cutUtf8, folderOf, signature, signedHeaders } from './webhook-payload.js';
import { retryDelay, telegramError } from './webhook-worker.js';

describe('webhook payload', () => {
  it('cuts text at 4096 bytes of UTF-8 without splitting a character', () => {
    expect(cutUtf8('short')).toBe('short');
    for (const text of ['验'.repeat(2000), `a${'😀'.repeat(1100)}`, 'é'.repeat(3000), 'x'.repeat(5000)]) {
      const cut = cutUtf8(text);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(4096);
      expect(Buffer.byteLength(cut)).toBeGreaterThan(4090);
      expect(text.startsWith(cut)).toBe(true);
    }
  });

  it('puts spam in junk, the rest in the inbox', () => {
    expect(folderOf({ spam: 1 })).toBe('junk');
    expect(folderOf({ spam: 0 })).toBe('inbox');
  });

  it('signs "<timestamp>.<body>" with HMAC-SHA256', () => {
    const body = '{"event":"mail.received"}';
    const headers = signedHeaders('secret-of-the-test', 'mail.received', 'key1', body, 1_700_000_000_123);
    expect(headers['x-youju-timestamp']).toBe('1700000000');
    expect(headers['x-youju-delivery']).toBe('key1');
    const expected = createHmac('sha256', 'secret-of-the-test').update(`1700000000.${body}`).digest('hex');
    expect(headers['x-youju-signature']).toBe(`sha256=${expected}`);
    expect(signature('other', 1_700_000_000, body)).not.toBe(headers['x-youju-signature']);
  });
});

describe('webhook retries', () => {
  it('retries within a minute, then doubles the wait, never more than 4 hours apart', () => {
    const base = 30_000;
    expect(retryDelay(1, base)).toBeLessThanOrEqual(60_000);
    expect(retryDelay(2, base)).toBe(2 * retryDelay(1, base));
    expect(retryDelay(30, base)).toBe(4 * 60 * 60 * 1000);
    // about fourteen attempts fit in the 24 hours before a delivery is given up
    let elapsed = 0;
    let attempts = 1;
    while (elapsed + retryDelay(attempts, base) <= 24 * 60 * 60 * 1000)
      elapsed += retryDelay(attempts++, base);
    expect(attempts).toBeGreaterThanOrEqual(10);
  });

  it("words Telegram's refusals without the URL", () => {
    expect(telegramError('{"ok":false,"description":"Forbidden: bot was blocked"}', 403)).toBe(
      'Telegram：Forbidden: bot was blocked',
    );
    expect(telegramError('<html>', 502)).toBe('Telegram 返回 HTTP 502');
  });
});
