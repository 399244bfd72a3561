import type {
  DnsCheckRecord,
  DnsProvider,
  DnsProviderKind,
  DnsRecordsData,
  SetDnsProviderBody,
  TsigAlgorithm,
} from '@youju/contract';
import { ErrorCode, TsigAlgorithms } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import {
  deleteDnsProviderOfDomain,
  findDnsProviderOfDomain,
  insertDnsProvider,
  updateDnsProviderOfDomain,
} from '../../db/repositories/dns-provider-repo.js';
import { recordDomainDnsStatus } from '../../db/repositories/domain-repo.js';
import type { Database, DomainDnsProviderRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { isPublicAddress } from '../../lib/public-address.js';
import { toIso } from '../../lib/time.js';
import {
  mxRdata,
  Rcode,
  RecordClass,
  RecordType,
  type ResourceRecord,
  splitTxt,
  txtRdata,
} from '../../protocols/dns/dns-wire.js';
import { DnsUpdateError, parseServerAddress, sendUpdate } from '../../protocols/dns/rfc2136-client.js';
import type { DkimService } from '../dkim/index.js';
import type { DomainService } from '../domains/index.js';
import { normalizeDomainName } from '../domains/index.js';
import type { AuthContext } from '../sessions/index.js';
import {
  API_PROVIDER_KINDS,
  type ApiProviderKind,
  apiClient,
  apiFailure,
  DnsApiError,
  providerLabel,
} from './dns-api-providers.js';
import { hostnameWarning, serverAddresses } from './dns-hostname.js';
import { createDnsLookup } from './dns-lookup.js';
import { reconcileRecords, type WantedWithKind } from './dns-reconcile.js';
import {
  type CheckedRecord,
  checkDkim,
  checkDmarc,
  checkMx,
  checkSpf,
  expectedRecords,
  hostLabel,
  overallStatus,
} from './dns-records.js';

/** TTL of the records setDNS writes: short enough to correct a mistake within the hour. */
const RECORD_TTL = 600;

/** Nothing of the TSIG secret leaves the server, not even its first characters. */
function maskSecret(secret: string): string {
  return secret ? '•'.repeat(12) : '';
}

const isApiKind = (kind: string): kind is ApiProviderKind =>
  (API_PROVIDER_KINDS as readonly string[]).includes(kind);

/** Each record named both ways: zone-relative as typed at a provider, and fully qualified. */
function withNames<T extends DnsCheckRecord>(records: T[], domain: string): T[] {
  return records.map((record) => ({
    ...record,
    host: hostLabel(record.name, domain),
    fqdn: `${record.name}.`,
  }));
}

/**
 * The row of an API provider (alidns, dnspod, cloudflare) reuses the RFC 2136 columns: `key_name`
 * holds the AccessKey ID / SecretId ('' for cloudflare), `secret` the AccessKey Secret / SecretKey /
 * API token, `server` and `algorithm` stay ''.
 */
function providerView(row: DomainDnsProviderRow): DnsProvider {
  if (isApiKind(row.kind)) {
    return {
      kind: row.kind,
      server: '',
      zone: row.zone,
      keyName: '',
      ...(row.kind === 'cloudflare' ? {} : { accessKeyId: row.key_name }),
      secretMasked: maskSecret(row.secret),
      updatedAt: toIso(row.updated_at),
    };
  }
  return {
    kind: 'rfc2136',
    server: row.server,
    zone: row.zone,
    keyName: row.key_name,
    algorithm: row.algorithm as TsigAlgorithm,
    secretMasked: maskSecret(row.secret),
    updatedAt: toIso(row.updated_at),
  };
}

const rcodeNames: Record<number, string> = Object.fromEntries(
  Object.entries(Rcode).map(([name, value]) => [value, name]),
);

/** One message for every way a user's server failed to answer: errors must not map ports. */
const NO_ANSWER_FOR_USERS = (server: string) =>
  new ApiError(
    ErrorCode.timeout,
    `DNS 服务器 ${server} 没有成功应答更新请求，请检查服务器地址、端口、防火墙（放行 53 端口的 UDP 和 TCP）以及服务器是否在运行`,
  );

function refusePrivateServer(auth: AuthContext, host: string): void {
  if (auth.role !== 'admin' && !isPublicAddress(host)) {
    throw ApiError.forbidden(
      'DNS 服务器必须是公网地址：本机、内网、链路本地等地址只有管理员可以设置，请填写 DNS 服务商提供的公网服务器地址',
    );
  }
}

/** A failed UPDATE in words the domain owner can act on. */
function updateFailure(error: DnsUpdateError, row: DomainDnsProviderRow, detailed: boolean): ApiError {
  const server = row.server;
  // Whether a port refused, timed out or answered garbage tells an attacker what listens there;
  // users get one answer for all three, administrators the detail.
  if (
    !detailed &&
    (error.reason === 'timeout' || error.reason === 'unreachable' || error.reason === 'badResponse')
  ) {
    return NO_ANSWER_FOR_USERS(server);
  }
  switch (error.reason) {
    case 'timeout':
      return new ApiError(
        ErrorCode.timeout,
        `DNS 服务器 ${server} 没有应答，请检查服务器地址、端口以及防火墙是否放行 53 端口（UDP 和 TCP）`,
      );
    case 'unreachable':
      return ApiError.badRequest(`无法连接 DNS 服务器 ${server}（${error.message}），请检查服务器地址和端口`);
    case 'tsig':
      if (error.tsigError === Rcode.BADKEY) {
        return ApiError.badRequest(
          `DNS 服务器不认识 TSIG 密钥“${row.key_name}”（${row.algorithm}）（BADKEY），请检查密钥名和算法是否与服务器配置一致`,
        );
      }
      if (error.tsigError === Rcode.BADTIME) {
        return ApiError.badRequest(
          'TSIG 签名时间与 DNS 服务器相差过大（BADTIME），请校准本机和 DNS 服务器的时间',
        );
      }
      return ApiError.badRequest(
        `TSIG 签名校验失败（NOTAUTH/BADSIG）：DNS 服务器拒绝了更新，请检查 TSIG 密钥“${row.key_name}”的密钥内容（secret）是否正确`,
      );
    case 'unsigned':
      return ApiError.badRequest(
        `DNS 服务器 ${server} 的应答没有 TSIG 签名，无法确认更新已被接受，请检查服务器的密钥配置`,
      );
    case 'badResponse':
      return ApiError.badRequest(`DNS 服务器 ${server} 返回了无法识别的应答，请确认它是 DNS 服务器`);
    case 'rcode': {
      const name = rcodeNames[error.rcode ?? -1] ?? String(error.rcode);
      if (error.rcode === Rcode.REFUSED) {
        return ApiError.badRequest(
          `DNS 服务器拒绝了对区域 ${row.zone} 的更新（REFUSED），请在服务器上允许密钥“${row.key_name}”更新该区域（BIND：update-policy 或 allow-update）`,
        );
      }
      if (error.rcode === Rcode.NOTAUTH) {
        return ApiError.badRequest(
          `DNS 服务器 ${server} 不是区域 ${row.zone} 的权威服务器（NOTAUTH），请填写主服务器地址或检查区域名称`,
        );
      }
      if (error.rcode === Rcode.NOTZONE) {
        return ApiError.badRequest(`要写入的记录不在区域 ${row.zone} 内（NOTZONE），请检查区域名称`);
      }
      return ApiError.badRequest(`DNS 服务器处理更新失败（${name}），请查看 DNS 服务器的日志`);
    }
  }
}

/** The AccessKey ID / SecretId: printable, no spaces (they are sent in every request). */
function apiKeyId(kind: ApiProviderKind, raw: string): string {
  const value = raw.trim();
  if (!/^[A-Za-z0-9_.-]{4,128}$/.test(value)) {
    throw ApiError.badRequest(
      kind === 'alidns'
        ? '请填写正确的 AccessKey ID（字母和数字），可在阿里云控制台“AccessKey 管理”中创建'
        : '请填写正确的 SecretId（字母和数字），可在腾讯云控制台“访问管理 > API 密钥管理”中创建',
    );
  }
  return value;
}

/** The secret: a new one, or the stored one when the field is left empty (it is write-only). */
function apiSecret(kind: ApiProviderKind, input: string | undefined, stored: string): string {
  const value = input?.trim() ?? '';
  if (!value) {
    if (stored) return stored;
    throw ApiError.badRequest(
      kind === 'cloudflare'
        ? '请填写 Cloudflare API 令牌（API Token）'
        : kind === 'alidns'
          ? '请填写 AccessKey Secret'
          : '请填写 SecretKey',
    );
  }
  if (!/^[\x21-\x7e]{8,512}$/.test(value)) {
    throw ApiError.badRequest(
      kind === 'cloudflare'
        ? 'API 令牌格式不正确：应为控制台生成的一串字母、数字和符号，不含空格'
        : '密钥格式不正确：应为控制台生成的一串字母和数字，不含空格',
    );
  }
  return value;
}

/**
 * checkDNS, setDNS and the DNS provider of a domain. Look-ups go through `config.dnsServers` (the
 * system's resolvers when empty); updates through the domain's RFC 2136 provider.
 */
export function createDnsService(deps: {
  db: Kysely<Database>;
  config: Config;
  domains: DomainService;
  dkim: DkimService;
}) {
  const { db, config, domains, dkim } = deps;

  const providerRow = (domainId: number) => findDnsProviderOfDomain(db, domainId);

  /** setDNS through a provider's HTTP API: only the records that differ are changed. */
  async function setThroughApi(
    kind: ApiProviderKind,
    row: DomainDnsProviderRow,
    domainId: number,
    domainName: string,
  ): Promise<DnsRecordsData> {
    const keys = await dkim.published(domainId, domainName);
    const expected = expectedRecords(domainName, config.mailHostname, keys);
    const wanted: WantedWithKind[] = expected.map((record) => ({
      kind: record.kind,
      name: record.name,
      type: record.type,
      value: record.type === 'MX' ? (record.exchange ?? config.mailHostname) : record.value,
      ...(record.type === 'MX' ? { priority: record.preference ?? 10 } : {}),
      ttl: RECORD_TTL,
    }));
    const client = apiClient(kind, config.dnsApi, {
      zone: row.zone,
      accessKeyId: row.key_name,
      secret: row.secret,
    });
    let changes: { created: number; updated: number; deleted: number };
    try {
      changes = await reconcileRecords(client, wanted);
    } catch (error) {
      if (error instanceof DnsApiError) throw apiFailure(kind, row.zone, error);
      throw error;
    }
    const summary =
      changes.created + changes.updated + changes.deleted === 0
        ? '记录已是正确的值，未做修改'
        : `新增 ${changes.created} 条、修改 ${changes.updated} 条、删除 ${changes.deleted} 条`;
    const records: DnsCheckRecord[] = expected.map((record) => ({
      kind: record.kind,
      type: record.type,
      name: record.name,
      expected: record.value,
      found: [record.value],
      status: 'ok',
      detail: `已通过${providerLabel[kind]}写入区域 ${row.zone}（本次${summary}）`,
    }));
    return { records: withNames(records, domainName) };
  }

  return {
    /** checkDNS: looks every expected record up and stores the overall status on the domain. */
    async check(auth: AuthContext, domainId: number): Promise<DnsRecordsData> {
      const domain = await domains.owned(auth, domainId);
      const keys = await dkim.published(domain.id, domain.name);
      const expected = expectedRecords(domain.name, config.mailHostname, keys);
      const lookup = createDnsLookup({ servers: config.dnsServers });
      try {
        const warningLookup = hostnameWarning(config.mailHostname, lookup, serverAddresses(config.publicIps));
        const mxRecord = expected.find((record) => record.kind === 'MX');
        const [mxResult, apexTxt, ...others] = await Promise.all([
          lookup.mx(domain.name),
          lookup.txt(domain.name),
          ...expected
            .filter((record) => record.kind === 'DKIM' || record.kind === 'DMARC')
            .map((r) => lookup.txt(r.name)),
        ]);
        const records: CheckedRecord[] = [];
        const mx = mxRecord ? checkMx(mxRecord, domain.name, mxResult) : null;
        if (mx) records.push(mx);
        let index = 0;
        for (const record of expected) {
          if (record.kind === 'SPF') {
            records.push(checkSpf(record, domain.name, config.mailHostname, mx?.status === 'ok', apexTxt));
          } else if (record.kind === 'DKIM' || record.kind === 'DMARC') {
            const result = others[index++] ?? { kind: 'none' as const };
            records.push(
              record.kind === 'DKIM'
                ? checkDkim(record, domain.name, result)
                : checkDmarc(record, domain.name, result),
            );
          }
        }
        const dnsStatus = overallStatus(records);
        const checkedAt = Date.now();
        await recordDomainDnsStatus(db, domain.id, dnsStatus, checkedAt);
        const warning = await warningLookup;
        return {
          records: withNames(records, domain.name),
          dnsStatus,
          checkedAt: toIso(checkedAt),
          ...(warning ? { hostnameWarning: warning } : {}),
        };
      } finally {
        lookup.cancel();
      }
    },

    async getProvider(auth: AuthContext, domainId: number): Promise<DnsProvider | null> {
      const domain = await domains.owned(auth, domainId);
      const row = await providerRow(domain.id);
      return row ? providerView(row) : null;
    },

    /** setDnsProvider: stores the provider; an empty secret keeps the stored one (it is write-only). */
    async setProvider(auth: AuthContext, input: SetDnsProviderBody): Promise<DnsProvider | null> {
      const domain = await domains.owned(auth, input.id);
      if (input.enabled === false) {
        await deleteDnsProviderOfDomain(db, domain.id);
        return null;
      }
      const existing = await providerRow(domain.id);
      const kind: DnsProviderKind =
        input.kind ?? (existing?.kind as DnsProviderKind | undefined) ?? 'rfc2136';
      const zoneInput = (input.zone ?? existing?.zone ?? '').trim();
      const zone = zoneInput ? normalizeDomainName(zoneInput) : domain.name;
      if (!zone || (domain.name !== zone && !domain.name.endsWith(`.${zone}`))) {
        throw ApiError.badRequest(`区域（zone）必须是 ${domain.name} 本身或它的上级域名`);
      }
      if (isApiKind(kind)) {
        // Switching kinds never carries a secret over: another provider's key would be sent to it.
        const sameKind = existing?.kind === kind;
        const values = {
          kind,
          server: '',
          zone,
          key_name:
            kind === 'cloudflare'
              ? ''
              : apiKeyId(kind, input.accessKeyId ?? (sameKind ? existing?.key_name : '') ?? ''),
          algorithm: '',
          secret: apiSecret(kind, input.secret, sameKind ? (existing?.secret ?? '') : ''),
          updated_at: Date.now(),
        };
        if (existing) await updateDnsProviderOfDomain(db, domain.id, values);
        else await insertDnsProvider(db, { domain_id: domain.id, ...values });
        const row = await providerRow(domain.id);
        return row ? providerView(row) : null;
      }
      const rfcExisting = existing?.kind === 'rfc2136' ? existing : undefined;
      const server = (input.server ?? rfcExisting?.server ?? '').trim();
      const parsed = parseServerAddress(server);
      if (!server || !parsed) {
        throw ApiError.badRequest(
          'DNS 服务器地址格式不正确，请填写 IP 或 IP:端口，例如 203.0.113.53 或 203.0.113.53:53',
        );
      }
      refusePrivateServer(auth, parsed.host);
      const keyName = (input.keyName ?? rfcExisting?.key_name ?? '').trim().toLowerCase().replace(/\.$/, '');
      if (!/^[a-z0-9_](?:[a-z0-9_.-]{0,251}[a-z0-9_])?$/.test(keyName) || keyName.includes('..')) {
        throw ApiError.badRequest(
          'TSIG 密钥名格式不正确，请填写 DNS 服务器上配置的密钥名，例如 youju-update',
        );
      }
      const algorithm =
        input.algorithm ?? (rfcExisting?.algorithm as TsigAlgorithm | undefined) ?? 'hmac-sha256';
      if (!TsigAlgorithms.includes(algorithm)) throw ApiError.badRequest('不支持的 TSIG 算法');
      const secretInput = input.secret?.trim() ?? '';
      let secret = rfcExisting?.secret ?? '';
      if (secretInput) {
        const decoded = Buffer.from(secretInput, 'base64');
        if (!/^[A-Za-z0-9+/]+={0,2}$/.test(secretInput) || decoded.length < 16) {
          throw ApiError.badRequest(
            'TSIG 密钥（secret）必须是 base64 编码、至少 16 字节，可用 tsig-keygen 生成',
          );
        }
        secret = secretInput;
      }
      if (!secret) throw ApiError.badRequest('请填写 TSIG 密钥（secret）');
      const values = {
        kind: 'rfc2136' as const,
        server,
        zone,
        key_name: keyName,
        algorithm,
        secret,
        updated_at: Date.now(),
      };
      if (existing) await updateDnsProviderOfDomain(db, domain.id, values);
      else await insertDnsProvider(db, { domain_id: domain.id, ...values });
      const row = await providerRow(domain.id);
      return row ? providerView(row) : null;
    },

    /**
     * setDNS: one RFC 2136 UPDATE that replaces MX, DKIM and DMARC RRsets and swaps only the SPF
     * record among the domain's TXT records (others, such as site verifications, stay).
     */
    async set(auth: AuthContext, domainId: number): Promise<DnsRecordsData> {
      const domain = await domains.owned(auth, domainId);
      const row = await providerRow(domain.id);
      if (!row)
        throw ApiError.badRequest(
          '该域名还没有配置 DNS 服务商，请先在“DNS 服务商”中选择服务商（RFC 2136、阿里云 DNS、DNSPod 或 Cloudflare）并填写密钥',
        );
      if (isApiKind(row.kind)) return setThroughApi(row.kind, row, domain.id, domain.name);
      const server = parseServerAddress(row.server);
      if (!server) throw ApiError.badRequest('DNS 服务器地址格式不正确，请重新设置 DNS 服务商');
      // Checked again at use: the setting may predate the rule, or the domain changed hands.
      refusePrivateServer(auth, server.host);
      const keys = await dkim.published(domain.id, domain.name);
      const expected = expectedRecords(domain.name, config.mailHostname, keys);

      // RFC 2136 2.5.4 deletes one RR by its exact RDATA, so read the current SPF records first.
      const lookup = createDnsLookup({ servers: [row.server], deadlineMs: 3000 });
      const apex = await lookup.txt(domain.name);
      lookup.cancel();
      const currentSpf =
        apex.kind === 'found' ? apex.values.filter((text) => /^v=spf1(\s|$)/i.test(text.trim())) : [];

      const updates: ResourceRecord[] = [];
      const written: DnsCheckRecord[] = [];
      for (const record of expected) {
        if (record.kind === 'SPF') {
          for (const old of currentSpf) {
            updates.push({
              name: record.name,
              type: RecordType.TXT,
              class: RecordClass.NONE,
              ttl: 0,
              rdata: txtRdata(old),
            });
          }
        } else {
          // RFC 2136 2.5.2: delete an RRset (class ANY, TTL 0, no RDATA).
          const type = record.type === 'MX' ? RecordType.MX : RecordType.TXT;
          updates.push({ name: record.name, type, class: RecordClass.ANY, ttl: 0, rdata: Buffer.alloc(0) });
        }
        // RFC 2136 2.5.1: add to an RRset.
        updates.push(
          record.type === 'MX'
            ? {
                name: record.name,
                type: RecordType.MX,
                class: RecordClass.IN,
                ttl: RECORD_TTL,
                rdata: mxRdata(record.preference ?? 10, record.exchange ?? config.mailHostname),
              }
            : {
                name: record.name,
                type: RecordType.TXT,
                class: RecordClass.IN,
                ttl: RECORD_TTL,
                rdata: txtRdata(splitTxt(record.value)),
              },
        );
        written.push({
          kind: record.kind,
          type: record.type,
          name: record.name,
          expected: record.value,
          found: [record.value],
          status: 'ok',
          detail: `已通过 ${row.server} 写入区域 ${row.zone}`,
        });
      }
      try {
        await sendUpdate({
          server,
          zone: row.zone,
          key: { name: row.key_name, algorithm: row.algorithm, secret: Buffer.from(row.secret, 'base64') },
          updates,
        });
      } catch (error) {
        if (error instanceof DnsUpdateError) throw updateFailure(error, row, auth.role === 'admin');
        throw error;
      }
      return { records: withNames(written, domain.name) };
    },
  };
}

export type DnsService = ReturnType<typeof createDnsService>;
