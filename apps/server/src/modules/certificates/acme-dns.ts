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
  return async () => {
    await sendUpdate({
      server,
      zone: provider.zone,
      key,
      updates: [{ name, type: RecordType.TXT, class: RecordClass.NONE, ttl: 0, rdata }],
    });
  };
}
