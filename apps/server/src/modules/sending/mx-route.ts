import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Why no server could be found for a domain; `permanent` failures are not retried. `status` is the
 * RFC 3463 code a bounce reports for it, as no server's reply carries one.
 */
export class RouteError extends Error {
  constructor(
    readonly permanent: boolean,
    message: string,
    readonly status: string,
  ) {
    super(message);
  }
}

/** A resolver on `DNS_SERVERS` (or the system's), so tests can point it at a name server on loopback. */
export function createResolver(servers: string[]): Resolver {
  const resolver = new Resolver({ timeout: 5_000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

function code(error: unknown): string {
  return String((error as { code?: unknown }).code ?? '');
}

/** Equal preferences are tried in random order to spread the load (RFC 5321 section 5.1). */
function shuffleEqualPreferences<T extends { priority: number }>(records: T[]): T[] {
  const shuffled = records.map((record) => ({ record, tie: Math.random() }));
  shuffled.sort((a, b) => a.record.priority - b.record.priority || a.tie - b.tie);
  return shuffled.map((entry) => entry.record);
}

/**
 * The hosts to try for `domain`, best first (RFC 5321 section 5.1): its MX records by preference;
 * without MX records the domain itself ("implicit MX"); a null MX (RFC 7505 section 3) or a
 * domain that does not exist is a permanent failure, a DNS server that does not answer a temporary
 * one.
 */
export async function mailExchangers(resolver: Resolver, domain: string): Promise<string[]> {
  try {
    const records = await resolver.resolveMx(domain);
    if (records.length === 0) return [domain];
    if (records.some((record) => record.exchange === '' || record.exchange === '.')) {
      // RFC 7505 section 4.1: a sender reports "556 5.1.10 Recipient address has null MX".
      throw new RouteError(true, `收件域名 ${domain} 声明不接收邮件（null MX，RFC 7505）`, '5.1.10');
    }
    return shuffleEqualPreferences(records).map((record) => record.exchange.replace(/\.$/, ''));
  } catch (error) {
    if (error instanceof RouteError) throw error;
    if (code(error) === 'ENODATA') return [domain];
    if (code(error) === 'ENOTFOUND')
      // RFC 3463 X.1.2: bad destination system address.
      throw new RouteError(true, `收件域名 ${domain} 不存在（DNS 查询无此域名）`, '5.1.2');
    // RFC 3463 X.4.3: directory server failure.
    throw new RouteError(
      false,
      `查询 ${domain} 的 MX 记录失败（${code(error) || (error as Error).message}），稍后重试`,
      '4.4.3',
    );
  }
}

/** IPv4 and IPv6 addresses of a mail host through the same resolver (an IP literal stands for itself). */
export async function hostAddresses(resolver: Resolver, host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const addresses = [
    ...(v4.status === 'fulfilled' ? v4.value : []),
    ...(v6.status === 'fulfilled' ? v6.value : []),
  ];
  return addresses;
}
