import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { epayPayUrl, epaySign, epaySignatureValid, fenToYuan, yuanToFen } from './epay.js';

describe('EPay protocol', () => {
  it('signs the sorted non-empty parameters with the key appended, without sign and sign_type', () => {
    const params = { pid: '1001', type: 'alipay', money: '9.90', name: '邮箱', empty: '', sign_type: 'MD5' };
    const expected = createHash('md5')
      .update('money=9.90&name=邮箱&pid=1001&type=alipay' + 'k3y')
      .digest('hex');
    expect(epaySign(params, 'k3y')).toBe(expected);
    expect(epaySignatureValid({ ...params, sign: expected }, 'k3y')).toBe(true);
    expect(epaySignatureValid({ ...params, sign: expected.toUpperCase() }, 'k3y')).toBe(true);
    expect(epaySignatureValid({ ...params, money: '0.01', sign: expected }, 'k3y')).toBe(false);
    expect(epaySignatureValid({ ...params, sign: expected }, 'other')).toBe(false);
    expect(epaySignatureValid({ ...params }, 'k3y')).toBe(false);
  });

  it('converts yuan and fen exactly', () => {
    expect(fenToYuan(990)).toBe('9.90');
    expect(fenToYuan(5)).toBe('0.05');
    expect(fenToYuan(100000)).toBe('1000.00');
    expect(yuanToFen('9.90')).toBe(990);
    expect(yuanToFen('9.9')).toBe(990);
    expect(yuanToFen('10')).toBe(1000);
    expect(yuanToFen('0.07')).toBe(7);
    expect(yuanToFen('1e3')).toBeNull();
    expect(yuanToFen('-1')).toBeNull();
    expect(yuanToFen('9.999')).toBeNull();
  });

  it('builds a signed redirect the gateway can verify', () => {
    const url = new URL(
      epayPayUrl({
        gatewayUrl: 'https://pay.example.com/submit.php',
        merchantId: '1001',
        key: 'k3y',
        type: 'wxpay',
        orderNo: '20260301120000123456789012',
        amountFen: 1234,
        name: '邮箱 a@b.test',
        notifyUrl: 'https://mail.example.com/api/pay/notify/epay',
        returnUrl: 'https://mail.example.com/store',
      }),
    );
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ pid: '1001', type: 'wxpay', money: '12.34', sign_type: 'MD5' });
    expect(epaySignatureValid(params, 'k3y')).toBe(true);
  });
});
