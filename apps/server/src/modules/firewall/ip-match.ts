import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A parsed blacklist entry: one address (as a /32 or /128 range) or a CIDR range. */
export interface IpRange {
  address: ipaddr.IPv4 | ipaddr.IPv6;
  prefix: number;
}

/**
 * Parses `1.2.3.4`, `10.0.0.0/8`, `2001:db8::1`, `2001:db8::/32`. IPv4-mapped IPv6 addresses
 * (`::ffff:1.2.3.4`, what a dual-stack socket reports) are reduced to IPv4 so that one entry covers
 * both spellings. Returns null for anything else.
 */
export function parseIpRange(text: string): IpRange | null {
  const value = text.trim();
  try {
    // net.isIP first: ipaddr.js also takes legacy forms such as "1.2.3" that nobody means here.
    if (!isIP(value.split('/')[0] ?? '')) return null;
    if (value.includes('/')) {
      const [address, prefix] = ipaddr.parseCIDR(value);
      if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
        return { address: (address as ipaddr.IPv6).toIPv4Address(), prefix: prefix - 96 };
      }
      return { address, prefix };
    }
    const address = normalizeIp(value);
    if (!address) return null;
    return { address, prefix: address.kind() === 'ipv4' ? 32 : 128 };
  } catch {
    return null;
  }
}

/** Parses one address; IPv4-mapped IPv6 becomes IPv4. */
export function normalizeIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    // ipaddr.process turns ::ffff:a.b.c.d into a.b.c.d
    return ipaddr.process(
      text
        .trim()
        .replace(/^\[|\]$/g, '')
        .replace(/%.*$/, ''),
    );
  } catch {
    return null;
  }
}

export function rangeContains(range: IpRange, address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (range.address.kind() !== address.kind()) return false;
  return address.match(range.address as never, range.prefix);
}
