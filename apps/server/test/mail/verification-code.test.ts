import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseMail } from '../../src/modules/mail/mail-parser.js';
import { findVerificationCode } from '../../src/modules/mail/verification-code.js';

const CORPUS = fileURLToPath(new URL('../fixtures/codes/', import.meta.url));

function expectedCodes(): Record<string, string | null> {
  return JSON.parse(readFileSync(join(CORPUS, 'expected.json'), 'utf8')) as Record<string, string | null>;
}

function textOnly(text: string) {
  return findVerificationCode({ subject: '', text, html: null });
}

describe('the verification-code corpus, parsed by the real parser', () => {
  const expected = expectedCodes();

  it('lists every .eml file, with at least 50 messages and 15 without a code', () => {
    const files = readdirSync(CORPUS).filter((name) => name.endsWith('.eml'));
    expect(Object.keys(expected).sort()).toEqual(files.sort());
    expect(files.length).toBeGreaterThanOrEqual(50);
    expect(Object.values(expected).filter((code) => code === null).length).toBeGreaterThanOrEqual(15);
  });

  it('never returns a wrong code (precision 1.0) and finds at least 90% of them', async () => {
    let found = 0;
    let correct = 0;
    let withCode = 0;
    const mistakes: string[] = [];
    for (const [file, code] of Object.entries(expected)) {
      const mail = await parseMail(readFileSync(join(CORPUS, file)));
      const got = findVerificationCode({ subject: mail.subject, text: mail.text, html: mail.html });
      if (code !== null) withCode++;
      if (got !== null) found++;
      if (got !== null && got === code) correct++;
      if (got !== code) mistakes.push(`${file}: expected ${code}, got ${got}`);
    }
    const precision = found === 0 ? 1 : correct / found;
    const recall = correct / withCode;
    console.log(
      `verification codes: precision ${precision.toFixed(3)} (${correct}/${found}), recall ${recall.toFixed(3)} (${correct}/${withCode})${mistakes.length ? `; missed: ${mistakes.join('; ')}` : ''}`,
    );
    expect(precision).toBe(1);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});

describe('findVerificationCode', () => {
  it('reads codes in Chinese and English wording, before or after the keyword', () => {
    expect(textOnly('【淘宝网】验证码 482913，您正在登录')).toBe('482913');
    expect(textOnly('123456是您的验证码，请勿泄露')).toBe('123456');
    expect(findVerificationCode({ subject: '209337 is your Discord code', text: null, html: null })).toBe(
      '209337',
    );
    expect(textOnly('Your one-time password is 7304')).toBe('7304');
  });

  it('returns what the user types: ASCII digits, groups joined, a sender tag dropped', () => {
    expect(textOnly('验证码：１２３４５６')).toBe('123456');
    expect(textOnly('Your verification code is 123 456.')).toBe('123456');
    expect(textOnly('Your confirmation code: ABC-123')).toBe('ABC123');
    expect(textOnly('G-552911 is your Google verification code.')).toBe('552911');
  });

  it('reads the code out of styled HTML, ignoring styles, comments and entities around it', () => {
    const html =
      '<html><head><style>.c{color:#123456}</style></head><body><!-- 999999 -->' +
      '<p>Your verification code:</p><table><tr><td style="color:#ff5000">&#56;&#50;&#57;&#49;&#48;&#51;</td></tr></table></body></html>';
    expect(findVerificationCode({ subject: 'Verify', text: null, html })).toBe('829103');
  });

  it('takes no order, tracking, phone, card or invoice number for a code', () => {
    expect(textOnly('订单号：245678901234，验证')).toBeNull();
    expect(textOnly('验证码已发送至尾号5678的手机')).toBeNull();
    expect(textOnly('您的验证码已发送至 138 1234 5678')).toBeNull();
    expect(textOnly('Your security code for order 55231 is below')).toBeNull();
    expect(textOnly('Verification code for ticket #4521')).toBeNull();
    expect(textOnly('如非本人操作请致电95588，勿泄露验证码')).toBeNull();
  });

  it('takes no price, date, time or year for a code', () => {
    expect(textOnly('验证码有效期至2024-06-03 10:30')).toBeNull();
    expect(textOnly('验证码 ¥1280')).toBeNull();
    expect(textOnly('Verification code: $4500')).toBeNull();
    expect(textOnly('验证码于2024年6月3日发送')).toBeNull();
    expect(textOnly('Your verification code expires on June 3, 2024')).toBeNull();
    expect(textOnly('Verification code valid for 1440 minutes')).toBeNull();
  });

  it('takes no promotional code, URL parameter or hex colour for a code', () => {
    expect(textOnly('Use promo code SAVE20 at checkout')).toBeNull();
    expect(
      textOnly('Your code: WELCOME10 — 10% off your first order, verify your email to redeem'),
    ).toBeNull();
    expect(textOnly('您的专属优惠码：VIP2024')).toBeNull();
    expect(textOnly('Verify here: https://example.com/verify?code=482913')).toBeNull();
    expect(
      findVerificationCode({
        subject: 'Verification code',
        text: null,
        html: '<p style="color:#A1B2C3">Hello</p>',
      }),
    ).toBeNull();
  });

  it('takes no house number or postal code for a code', () => {
    expect(textOnly('Your sign-in code\n\n5521 W Main St, Springfield IL 62704')).toBeNull();
    expect(textOnly('您的验证码\n\n上海市浦东新区 200120')).toBeNull();
  });

  it('returns null when two different codes are offered', () => {
    expect(
      textOnly('Your verification code is 482913. Your old verification code 771204 expired.'),
    ).toBeNull();
  });

  it('takes no word for a code: letters only, or words with a number', () => {
    expect(textOnly('Your verification code is ready')).toBeNull();
    expect(textOnly('Steam Guard code: KXPRT')).toBeNull();
    expect(textOnly('验证码 for Win10')).toBeNull();
  });

  // Bounded work, not a timing: the extractor looks at the first 64 KiB of text (128 KiB of HTML)
  // with linear-time patterns, so these finish in milliseconds; a pattern that backtracked would
  // hang past the test's timeout instead.
  it('returns on 2 MB of hostile input', { timeout: 30_000 }, () => {
    const hostile = [
      '验证码 1 '.repeat(60_000),
      '<'.repeat(300_000),
      '<!--'.repeat(100_000),
      '<style>'.repeat(50_000),
      '1-'.repeat(300_000),
      'a '.repeat(300_000),
      '123 '.repeat(200_000),
      '&#1'.repeat(200_000),
      'code 1234 '.repeat(100_000),
    ];
    for (const body of hostile) {
      const big = body.repeat(Math.ceil((2 * 1024 * 1024) / body.length)).slice(0, 2 * 1024 * 1024);
      expect(() => findVerificationCode({ subject: big, text: big, html: big })).not.toThrow();
    }
  });
});
