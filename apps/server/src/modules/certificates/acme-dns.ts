import { Resolver } from 'node:dns/promises';
import { isIPv6 } from 'node:net';
import type { Kysely } from 'kysely';
import { findDnsProviderOfDomain } from '../../db/repositories/dns-provider-repo.js';
import { findDomainByName } from '../../db/repositories/domain-repo.js';
import type { Database, DomainDnsProviderRow } from '../../db/schema.js';
import { RecordClass, RecordType, splitTxt, txtRdata } from '../../protocols/dns/dns-wire.js';
import { DnsUpdateError, parseServerAddress, sendUpdate } from '../../protocols/dns/rfc2136-client.js';

/** A short TTL: the record lives only while the CA validates (RFC 8555 section 8.4). */
const CHALLENGE_TTL = 60;

/** A failure the operator must fix, in Chinese, for the certificates screen. */
export class AcmeDnsError extends Error {}

/**
 * The domain that holds `hostname` and has RFC 2136 settings: the longest domain name that is the
 * host itself or one of its parents (mail.example.com → example.com).
 */
async function providerFor(
  db: Kysely<Database>,
  hostname: string,
): Promise<{ domain: string; provider: DomainDnsProviderRow }> {
  const labels = hostname.split('.');
  for (let start = 0; start < labels.length - 1; start += 1) {
    const name = labels.slice(start).join('.');
    const domain = await findDomainByName(db, name);
    if (!domain) continue;
    const provider = await findDnsProviderOfDomain(db, domain.id);
    if (provider) return { domain: name, provider };
    throw new AcmeDnsError(
      `域名 ${name} 没有配置 DNS 服务商（RFC 2136），无法用 DNS-01 为 ${hostname} 申请证书`,
    );
  }
  throw new AcmeDnsError(
    `${hostname} 不属于本系统中的任何域名，无法用 DNS-01 申请证书；请先添加域名并配置 DNS 服务商`,
  );
}

function explain(error: unknown, provider: DomainDnsProviderRow): AcmeDnsError {
  if (!(error instanceof DnsUpdateError))
    return new AcmeDnsError(`写入 DNS 记录失败：${(error as Error).message}`);
  switch (error.reason) {
    case 'timeout':
      return new AcmeDnsError(`DNS 服务器 ${provider.server} 没有应答，无法写入 DNS-01 验证记录`);
    case 'tsig':
      return new AcmeDnsError(
        `DNS 服务器拒绝了 TSIG 密钥“${provider.key_name}”，请检查域名的 DNS 服务商设置`,
      );
    case 'rcode':
      return new AcmeDnsError(
        `DNS 服务器 ${provider.server} 拒绝写入区域 ${provider.zone}（${error.message}），请检查授权（update-policy）`,
      );
    default:
      return new AcmeDnsError(`写入 DNS-01 验证记录失败（${provider.server}：${error.message}）`);
  }
}

/** How long a published TXT record may take to reach every authoritative server, and how often to look. */
const PROPAGATION_TIMEOUT_MS = 60_000;
const PROPAGATION_POLL_MS = 2000;
const QUERY_TIMEOUT_MS = 2000;

function resolverFor(servers: string[]): Resolver {
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

function formatServer(address: { host: string; port: number }): string {
  return isIPv6(address.host) ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}

/**
 * The zone's authoritative servers as `host:port`: the RFC 2136 server (the primary, which took the
 * update) and the addresses of the zone's NS names, found through the configured resolvers
 * (DNS_SERVERS). An NS address that is the primary's is asked at the primary's port. A lookup that
 * fails leaves the primary alone (a zone the resolvers do not know yet, or a private test zone).
 */
async function authoritativeServers(
  zone: string,
  primary: { host: string; port: number },
  resolvers: string[],
): Promise<string[]> {
  const found = new Set([formatServer(primary)]);
  const resolver = resolverFor(resolvers);
  let names: string[] = [];
  try {
    names = await resolver.resolveNs(zone);
  } catch {
    return [...found];
  }
  for (const name of names.slice(0, 8)) {
    const addresses = [
      ...(await resolver.resolve4(name).catch(() => [] as string[])),
      ...(await resolver.resolve6(name).catch(() => [] as string[])),
    ];
    for (const host of addresses) {
      found.add(formatServer({ host, port: host === primary.host ? primary.port : 53 }));
    }
  }
  return [...found];
}

/**
 * Waits until every authoritative server of `zone` answers `name` TXT with `value`, polling up to
 * `timeoutMs`: the CA asks one of them (RFC 8555 section 8.4), and a secondary that has not caught
 * up yet would fail the order. Throws an AcmeDnsError naming the servers that never showed it.
 */
export async function waitForTxtRecord(options: {
  name: string;
  value: string;
  zone: string;
  primary: { host: string; port: number };
  resolvers: string[];
  timeoutMs?: number;
  pollMs?: number;
  /** aborts the wait (the server is closing) */
  signal?: AbortSignal;
}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? PROPAGATION_TIMEOUT_MS);
  const servers = await authoritativeServers(options.zone, options.primary, options.resolvers);
  let missing = servers;
  for (;;) {
    const checks = await Promise.all(
      missing.map(async (server) => {
        const records = await resolverFor([server])
          .resolveTxt(options.name)
          .catch(() => [] as string[][]);
        return records.some((chunks) => chunks.join('') === options.value) ? null : server;
      }),
    );
    missing = checks.filter((server): server is string => server !== null);
    if (missing.length === 0) return;
    if (Date.now() + (options.pollMs ?? PROPAGATION_POLL_MS) > deadline) {
      throw new AcmeDnsError(
        `DNS-01 验证记录 ${options.name} 在 ${Math.round((options.timeoutMs ?? PROPAGATION_TIMEOUT_MS) / 1000)} 秒内未出现在权威服务器 ${missing.join('、')} 上，请检查区域同步`,
      );
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(done, options.pollMs ?? PROPAGATION_POLL_MS);
      function done() {
        options.signal?.removeEventListener('abort', done);
        clearTimeout(timer);
        if (options.signal?.aborted) reject(new AcmeDnsError('已停止等待 DNS-01 验证记录（服务正在关闭）'));
        else resolve();
      }
      options.signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/**
 * DNS-01 (RFC 8555 section 8.4) through the domain's RFC 2136 settings: adds the TXT record
 * `_acme-challenge.<name>` holding the key authorization's digest, and returns how to remove exactly
 * that record again (RFC 2136 section 2.5.4: delete an RR by its RDATA, leaving others in place, such
 * as a second authorization's value for the same name during a wildcard order).
 */
export async function publishDnsChallenge(
  db: Kysely<Database>,
  identifier: string,
  digest: string,
  resolvers: string[] = [],
  signal?: AbortSignal,
): Promise<() => Promise<void>> {
  const name = `_acme-challenge.${identifier}`;
  const { provider } = await providerFor(db, identifier);
  const server = parseServerAddress(provider.server);
  if (!server) throw new AcmeDnsError(`DNS 服务器地址“${provider.server}”格式不正确，请重新设置 DNS 服务商`);
  const key = {
    name: provider.key_name,
    algorithm: provider.algorithm,
    secret: Buffer.from(provider.secret, 'base64'),
  };
  const rdata = txtRdata(splitTxt(digest));
  try {
    await sendUpdate({
      server,
      zone: provider.zone,
      key,
      updates: [{ name, type: RecordType.TXT, class: RecordClass.IN, ttl: CHALLENGE_TTL, rdata }],
    });
  } catch (error) {
    throw explain(error, provider);
  }
  const remove = async () => {
    await sendUpdate({
      server,
      zone: provider.zone,
      key,
      updates: [{ name, type: RecordType.TXT, class: RecordClass.NONE, ttl: 0, rdata }],
    });
  };
  // Only once every authoritative server shows it may the CA be told to look; removed again on failure.
  try {
    await waitForTxtRecord({
      name,
      value: digest,
      zone: provider.zone,
      primary: server,
      resolvers,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    await remove().catch(() => undefined);
    throw error;
  }
  return remove;
}
