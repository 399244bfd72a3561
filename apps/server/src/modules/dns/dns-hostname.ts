import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { DnsLookup } from './dns-lookup.js';

/** The addresses of this machine's interfaces, or PUBLIC_IP when the operator named them (NAT). */
export function serverAddresses(publicIps: readonly string[]): string[] {
  if (publicIps.length > 0) return publicIps.map(normalize);
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => normalize(entry.address));
}

function normalize(address: string): string {
  try {
    return ipaddr.process(address.replace(/%.*$/, '')).toNormalizedString();
  } catch {
    return address;
  }
}

/**
 * Why MAIL_HOSTNAME cannot be the target of the domains' MX records, or null when it can: an MX
 * must name a host with address records (RFC 5321 section 5.1; RFC 2181 section 10.3: not an
 * alias, and never an IP literal), i.e. a fully qualified name that resolves to this server.
 */
export async function hostnameWarning(
  mailHostname: string,
  lookup: DnsLookup,
  addresses: readonly string[],
): Promise<string | null> {
  const host = mailHostname.trim().toLowerCase().replace(/\.$/, '');
  const fix =
    '请把环境变量 MAIL_HOSTNAME 设为本服务器的完整域名（例如 mail.example.com），并为它添加指向本服务器的 A/AAAA 记录';
  if (isIP(host)) return `MAIL_HOSTNAME 是 IP 地址（${host}），MX 记录不能指向 IP 地址。${fix}`;
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return `MAIL_HOSTNAME（${host}）不是完整域名（FQDN），其他邮件服务器无法据此找到本服务器。${fix}`;
  }
  const [v4, v6] = await Promise.all([lookup.a(host), lookup.aaaa(host)]);
  if (v4.kind === 'timeout' || v6.kind === 'timeout') return null; // nothing known: the record checks say so
  const found = [...(v4.kind === 'found' ? v4.values : []), ...(v6.kind === 'found' ? v6.values : [])];
  if (found.length === 0) {
    return `MAIL_HOSTNAME（${host}）没有 A/AAAA 记录，其他邮件服务器无法连接本服务器。${fix}`;
  }
  const ours = new Set(addresses);
  if (!found.some((address) => ours.has(normalize(address)))) {
    // The server's own addresses are not named: users see this too, and interface addresses can
    // be internal ones.
    return `MAIL_HOSTNAME（${host}）解析到 ${found.join('、')}，不是本服务器的地址。请把它的 A/AAAA 记录指向本服务器；服务器在 NAT 之后时，请用环境变量 PUBLIC_IP 填写公网地址`;
  }
  return null;
}
