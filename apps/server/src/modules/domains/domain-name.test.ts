import { describe, expect, it } from 'vitest';
import { displayDomainName, normalizeDomainName } from './domain-name.js';

describe('domain names', () => {
  it('normalises case, spaces, trailing dots and IDN', () => {
    expect(normalizeDomainName(' Example.COM. ')).toBe('example.com');
    expect(normalizeDomainName('邮件.例子.中国')).toMatch(/^xn--.+\.xn--.+\.xn--fiqs8s$/);
    expect(displayDomainName(normalizeDomainName('邮件.中国')!)).toBe('邮件.中国');
    expect(normalizeDomainName('mail.xn--fiqs8s')).toBe('mail.xn--fiqs8s');
  });

  it('refuses what cannot be a mail domain', () => {
    for (const bad of [
      '',
      'com',
      'a..b',
      '-a.com',
      'a-.com',
      'a_b.com',
      'user@a.com',
      'http://a.com',
      '1.2.3.4',
      `${'a'.repeat(64)}.com`,
    ]) {
      expect(normalizeDomainName(bad), bad).toBeNull();
    }
  });
});
