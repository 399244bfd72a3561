/**
 * What setDNS needs from a DNS provider's HTTP API (Alibaba Cloud DNS, DNSPod, Cloudflare): list
 * the records of one name and type, create, update, delete. Each provider is one small client in
 * its own file; `reconcileRecords` (dns-reconcile.ts) makes the zone equal to what is wanted.
 */

export type ApiRecordType = 'MX' | 'TXT';

/** A record as a provider holds it, with the name made fully qualified (lower case, no final dot). */
export interface ApiRecord {
  id: string;
  name: string;
  type: ApiRecordType;
  /** TXT: the text (character-strings joined); MX: the exchange host */
  value: string;
  /** MX preference */
  priority?: number;
}

/** A record to write: name fully qualified without the final dot. */
export interface WantedApiRecord {
  name: string;
  type: ApiRecordType;
  value: string;
  priority?: number;
  ttl: number;
}

export interface DnsApiClient {
  /** Chinese name of the provider, for messages */
  readonly label: string;
  list(name: string, type: ApiRecordType): Promise<ApiRecord[]>;
  create(record: WantedApiRecord): Promise<void>;
  update(id: string, record: WantedApiRecord): Promise<void>;
  delete(id: string): Promise<void>;
}

/** The credentials and zone a client works with (the secret never leaves the client but signed). */
export interface DnsApiAccount {
  /** the API's base URL (config.dnsApi) */
  baseUrl: string;
  /** the zone as the provider knows it, e.g. `example.com` */
  zone: string;
  /** alidns AccessKey ID, dnspod SecretId; '' for cloudflare */
  accessKeyId: string;
  /** alidns AccessKey Secret, dnspod SecretKey, cloudflare API token */
  secret: string;
}

/**
 * Why a call failed, in categories the service turns into Chinese messages: `auth` (bad key or
 * signature), `zone` (the zone is not in the account), `rateLimited`, `timeout`, `unreachable`,
 * `badResponse` (not the API's JSON) and `rejected` (any other API error, with its code).
 */
export type DnsApiFailure =
  | 'auth'
  | 'zone'
  | 'rateLimited'
  | 'timeout'
  | 'unreachable'
  | 'badResponse'
  | 'rejected';

export class DnsApiError extends Error {
  constructor(
    readonly reason: DnsApiFailure,
    /** the provider's own error code, e.g. `SignatureDoesNotMatch` (never a secret) */
    readonly providerCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** The whole call, connection to last byte: a provider that hangs must not hold a request. */
export const API_TIMEOUT_MS = 10_000;
/** A list of records is small; anything larger is not the API answering. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface ApiResponse {
  status: number;
  headers: Headers;
  json: unknown;
}

/**
 * One HTTP exchange with a provider: no redirects followed (the credentials go to the configured
 * endpoint only), cut at API_TIMEOUT_MS, the answer read up to MAX_RESPONSE_BYTES and parsed as JSON.
 */
export async function callApi(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
): Promise<ApiResponse> {
  const signal = AbortSignal.timeout(API_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw new DnsApiError('timeout', 'timeout', 'timeout');
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? 'network';
    throw new DnsApiError('unreachable', cause, cause);
  }
  let text: string;
  try {
    text = await readCapped(response);
  } catch (error) {
    if (signal.aborted) throw new DnsApiError('timeout', 'timeout', 'timeout');
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (response.status === 429) throw new DnsApiError('rateLimited', String(response.status), '');
    throw new DnsApiError('badResponse', `HTTP ${response.status}`, `HTTP ${response.status}`);
  }
  return { status: response.status, headers: response.headers, json };
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new DnsApiError('badResponse', 'too large', `应答超过 ${MAX_RESPONSE_BYTES} 字节`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `sel._domainkey` for `sel._domainkey.example.com` in zone `example.com`; `@` for the apex. */
export function relativeName(name: string, zone: string): string {
  if (name === zone) return '@';
  if (!name.endsWith(`.${zone}`))
    throw new DnsApiError('zone', 'outside zone', `${name} 不在区域 ${zone} 内`);
  return name.slice(0, -(zone.length + 1));
}

export function absoluteName(relative: string, zone: string): string {
  const bare = relative.toLowerCase().replace(/\.$/, '');
  return bare === '@' || bare === '' ? zone : `${bare}.${zone}`;
}

/** Lower case, no final dot: how names and MX hosts are compared. */
export function bareName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}
