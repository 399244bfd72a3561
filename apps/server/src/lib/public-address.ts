import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is on the public internet. Loopback, private, link-local, unique-local,
 * carrier-grade NAT, multicast, reserved and unspecified addresses reach this machine or its
 * network; so do IPv4-mapped IPv6 addresses of those (`ipaddr.process` unwraps them). A user who
 * could make the server talk to them would reach services behind its firewall (server-side request
 * forgery): DNS servers for RFC 2136 updates, webhook targets.
 */
export function isPublicAddress(host: string): boolean {
  try {
    const parsed = ipaddr.process(host);
    return parsed.range() === 'unicast';
  } catch {
    return false;
  }
}
