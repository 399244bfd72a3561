import { describe, expect, it } from 'vitest';
import { normalizeIp, parseIpRange, rangeContains } from './ip-match.js';

function blocked(entry: string, ip: string): boolean {
  const range = parseIpRange(entry);
  const address = normalizeIp(ip);
  if (!range || !address) throw new Error('bad input');
  return rangeContains(range, address);
}

describe('ip ranges', () => {
  it('matches single IPv4 and IPv6 addresses', () => {
    expect(blocked('192.0.2.7', '192.0.2.7')).toBe(true);
    expect(blocked('192.0.2.7', '192.0.2.8')).toBe(false);
    expect(blocked('2001:db8::1', '2001:0db8:0:0::1')).toBe(true);
    expect(blocked('2001:db8::1', '2001:db8::2')).toBe(false);
  });
  it('matches CIDR ranges of both families', () => {
    expect(blocked('10.0.0.0/8', '10.200.3.4')).toBe(true);
    expect(blocked('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(blocked('2001:db8::/32', '2001:db8:ffff::9')).toBe(true);
    expect(blocked('2001:db8::/32', '2001:db9::9')).toBe(false);
  });
  it('treats IPv4-mapped IPv6 as IPv4', () => {
    expect(blocked('127.0.0.1', '::ffff:127.0.0.1')).toBe(true);
    expect(blocked('::ffff:127.0.0.0/104', '127.9.9.9')).toBe(true);
    expect(blocked('127.0.0.0/8', '::1')).toBe(false);
  });
  it('refuses garbage', () => {
    for (const bad of ['', 'abc', '1.2.3', '1.2.3.4/33', '::/129', '300.1.1.1']) {
      expect(parseIpRange(bad)).toBeNull();
    }
  });
});
