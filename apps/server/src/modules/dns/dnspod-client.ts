import { createHash, createHmac } from 'node:crypto';
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
 * DNSPod through Tencent Cloud API 3.0 (dnspod.tencentcloudapi.com, version 2021-03-23): every
 * call is a POST of a JSON body, signed with TC3-HMAC-SHA256.
 */
const SERVICE = 'dnspod';
const VERSION = '2021-03-23';
const CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();

/**
 * TC3-HMAC-SHA256: the canonical request (method, URI `/`, empty query, the signed headers
 * content-type and host in lower case, their names, the payload's SHA-256) is hashed into the
 * string to sign `TC3-HMAC-SHA256\n<timestamp>\n<date>/dnspod/tc3_request\n<hash>`; the key is
 * derived as HMAC(HMAC(HMAC("TC3" + SecretKey, date), service), "tc3_request").
 */
export function tc3Authorization(input: {
  secretId: string;
  secretKey: string;
  host: string;
  payload: string;
  timestamp: number;
  service?: string;
}): string {
  const service = input.service ?? SERVICE;
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${CONTENT_TYPE}\nhost:${input.host.toLowerCase()}\n`,
    'content-type;host',
    sha256Hex(input.payload),
  ].join('\n');
  const scope = `${date}/${service}/tc3_request`;
  const stringToSign = `TC3-HMAC-SHA256\n${input.timestamp}\n${scope}\n${sha256Hex(canonicalRequest)}`;
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=content-type;host, Signature=${signature}`;
}

interface DnspodRecord {
  RecordId?: number;
  Name?: string;
  Type?: string;
  Value?: string;
  MX?: number;
}

export function createDnspodClient(account: DnsApiAccount): DnsApiClient {
  const { zone } = account;
  const host = new URL(account.baseUrl).host;

  async function call(action: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const payload = JSON.stringify(params);
    const timestamp = Math.floor(Date.now() / 1000);
    const response = await callApi(`${account.baseUrl}/`, {
      method: 'POST',
      headers: {
        'Content-Type': CONTENT_TYPE,
        'X-TC-Action': action,
        'X-TC-Version': VERSION,
        'X-TC-Timestamp': String(timestamp),
        Authorization: tc3Authorization({
          secretId: account.accessKeyId,
          secretKey: account.secret,
          host,
          payload,
          timestamp,
        }),
      },
      body: payload,
    });
    const body = ((response.json as { Response?: Record<string, unknown> } | null)?.Response ?? null) as
      | (Record<string, unknown> & { Error?: { Code?: string; Message?: string } })
      | null;
    if (!body) throw new DnsApiError('badResponse', `HTTP ${response.status}`, 'no Response');
    const error = body.Error;
    if (error) {
      const code = String(error.Code ?? '');
      const message = String(error.Message ?? '').slice(0, 200);
      if (code.startsWith('AuthFailure') || code === 'UnauthorizedOperation') {
        throw new DnsApiError('auth', code, message);
      }
      if (code === 'RequestLimitExceeded' || code.startsWith('RequestLimitExceeded')) {
        throw new DnsApiError('rateLimited', code, message);
      }
      // DescribeRecordList answers an error, not an empty list, when nothing matches.
      if (code === 'ResourceNotFound.NoDataOfRecord') return { RecordList: [] };
      if (/DomainNotExists|DomainInvalid|NoDataOfDomain/.test(code))
        throw new DnsApiError('zone', code, message);
      throw new DnsApiError('rejected', code || `HTTP ${response.status}`, message);
    }
    if (response.status >= 400) throw new DnsApiError('badResponse', `HTTP ${response.status}`, '');
    return body;
  }

  const recordParams = (record: WantedApiRecord): Record<string, unknown> => ({
    Domain: zone,
    SubDomain: relativeName(record.name, zone),
    RecordType: record.type,
    RecordLine: '默认',
    Value: record.value,
    TTL: record.ttl,
    ...(record.type === 'MX' ? { MX: record.priority ?? 10 } : {}),
  });

  return {
    label: 'DNSPod（腾讯云）',
    async list(name: string, type: ApiRecordType): Promise<ApiRecord[]> {
      const sub = relativeName(name, zone);
      const body = await call('DescribeRecordList', {
        Domain: zone,
        Subdomain: sub,
        RecordType: type,
        Limit: 3000,
      });
      const records = (body.RecordList ?? []) as DnspodRecord[];
      return records
        .filter(
          (record) =>
            record.Type === type &&
            (record.Name ?? '').toLowerCase() === sub.toLowerCase() &&
            record.RecordId,
        )
        .map((record) => ({
          id: String(record.RecordId),
          name: absoluteName(record.Name ?? '@', zone),
          type,
          value: type === 'MX' ? bareName(record.Value ?? '') : (record.Value ?? ''),
          ...(typeof record.MX === 'number' && type === 'MX' ? { priority: record.MX } : {}),
        }));
    },
    async create(record) {
      await call('CreateRecord', recordParams(record));
    },
    async update(id, record) {
      await call('ModifyRecord', { ...recordParams(record), RecordId: Number(id) });
    },
    async delete(id) {
      await call('DeleteRecord', { Domain: zone, RecordId: Number(id) });
    },
  };
}
