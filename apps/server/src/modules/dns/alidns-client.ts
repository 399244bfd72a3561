import { createHmac, randomUUID } from 'node:crypto';
import {
  type ApiRecord,
  type ApiRecordType,
  absoluteName,
  bareName,
  callApi,
  type DnsApiAccount,
  type DnsApiClient,
  DnsApiError,
  relativeName,
  type WantedApiRecord,
} from './dns-api.js';

/**
 * Alibaba Cloud DNS (云解析 DNS), API version 2015-01-09, RPC style: every call is a GET whose
 * query carries the common parameters and a signature (signature version 1.0, HMAC-SHA1).
 */
const VERSION = '2015-01-09';

/**
 * The "POP" percent-encoding: RFC 3986 unreserved characters (A–Z a–z 0–9 - _ . ~) stay, all else
 * is %XY of its UTF-8 bytes, a space is %20 (not +). encodeURIComponent leaves ! ' ( ) * alone,
 * so those are encoded here.
 */
export function popEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The signature of a parameter set: the parameters (all but Signature) sorted by name, encoded and
 * joined into the canonicalized query; StringToSign = `GET&%2F&` + encode(canonicalized query);
 * Signature = base64(HMAC-SHA1(AccessKeySecret + "&", StringToSign)).
 */
export function alidnsSignature(params: Record<string, string>, secret: string, method = 'GET'): string {
  const canonical = Object.keys(params)
    .filter((name) => name !== 'Signature')
    .sort()
    .map((name) => `${popEncode(name)}=${popEncode(params[name] ?? '')}`)
    .join('&');
  const stringToSign = `${method}&${popEncode('/')}&${popEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
}

/** ISO 8601 in UTC without milliseconds, as the API wants its Timestamp. */
function timestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

interface AlidnsRecord {
  RecordId?: string;
  RR?: string;
  Type?: string;
  Value?: string;
  Priority?: number;
}

const AUTH_CODES = new Set([
  'InvalidAccessKeyId.NotFound',
  'InvalidAccessKeyId.Inactive',
  'SignatureDoesNotMatch',
  'IncompleteSignature',
  'InvalidTimeStamp.Expired',
  'SignatureNonceUsed',
  'Forbidden.RAM',
  'Forbidden',
]);

export function createAlidnsClient(account: DnsApiAccount): DnsApiClient {
  const { zone } = account;

  async function call(action: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    const all: Record<string, string> = {
      ...params,
      Action: action,
      Format: 'JSON',
      Version: VERSION,
      AccessKeyId: account.accessKeyId,
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      SignatureNonce: randomUUID(),
      Timestamp: timestamp(),
    };
    all.Signature = alidnsSignature(all, account.secret);
    const query = Object.entries(all)
      .map(([name, value]) => `${popEncode(name)}=${popEncode(value)}`)
      .join('&');
    const response = await callApi(`${account.baseUrl}/?${query}`, { method: 'GET' });
    const body = (response.json ?? {}) as Record<string, unknown>;
    const code = typeof body.Code === 'string' ? body.Code : '';
    if (response.status >= 400 || code) {
      const message = typeof body.Message === 'string' ? body.Message.slice(0, 200) : '';
      if (AUTH_CODES.has(code) || response.status === 401 || response.status === 403) {
        throw new DnsApiError('auth', code || String(response.status), message);
      }
      if (code.startsWith('Throttling') || response.status === 429) {
        throw new DnsApiError('rateLimited', code || '429', message);
      }
      if (
        code === 'InvalidDomainName.NoExist' ||
        code === 'IncorrectDomainUser' ||
        code === 'DomainNotFound'
      ) {
        throw new DnsApiError('zone', code, message);
      }
      throw new DnsApiError('rejected', code || `HTTP ${response.status}`, message);
    }
    return body;
  }

  const recordParams = (record: WantedApiRecord): Record<string, string> => ({
    RR: relativeName(record.name, zone),
    Type: record.type,
    Value: record.value,
    TTL: String(record.ttl),
    ...(record.type === 'MX' ? { Priority: String(record.priority ?? 10) } : {}),
  });

  return {
    label: '阿里云 DNS',
    async list(name: string, type: ApiRecordType): Promise<ApiRecord[]> {
      const rr = relativeName(name, zone);
      const found: ApiRecord[] = [];
      // RRKeyWord is a fuzzy match, so the answer is filtered to the exact name here.
      for (let page = 1; page <= 20; page++) {
        const body = await call('DescribeDomainRecords', {
          DomainName: zone,
          RRKeyWord: rr,
          TypeKeyWord: type,
          PageNumber: String(page),
          PageSize: '100',
        });
        const records = ((body.DomainRecords as { Record?: AlidnsRecord[] } | undefined)?.Record ??
          []) as AlidnsRecord[];
        for (const record of records) {
          if (
            record.Type !== type ||
            (record.RR ?? '').toLowerCase() !== rr.toLowerCase() ||
            !record.RecordId
          )
            continue;
          found.push({
            id: String(record.RecordId),
            name: absoluteName(record.RR ?? '@', zone),
            type,
            value: type === 'MX' ? bareName(record.Value ?? '') : (record.Value ?? ''),
            ...(typeof record.Priority === 'number' ? { priority: record.Priority } : {}),
          });
        }
        const total = Number(body.TotalCount ?? 0);
        if (records.length === 0 || page * 100 >= total) break;
      }
      return found;
    },
    async create(record) {
      await call('AddDomainRecord', { DomainName: zone, ...recordParams(record) });
    },
    async update(id, record) {
      await call('UpdateDomainRecord', { RecordId: id, ...recordParams(record) });
    },
    async delete(id) {
      await call('DeleteDomainRecord', { RecordId: id });
    },
  };
}
