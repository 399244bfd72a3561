import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stand-ins for the DNS providers' HTTP APIs (Alibaba Cloud DNS, DNSPod / Tencent Cloud API 3.0,
 * Cloudflare v4), on 127.0.0.1: the real services are out of reach from tests. Each implements
 * the documented endpoints used by setDNS, VERIFIES the request's signature or token the way the
 * real service does (written here from the providers' documentation, independently of the client
 * code), rejects stale timestamps and replayed nonces, and keeps a record set in memory.
 */

export interface StandInRecord {
  id: string;
  /** fully qualified, lower case, no final dot */
  name: string;
  type: string;
  value: string;
  priority?: number;
  ttl: number;
}

export interface RunningStandIn {
  url: string;
  records: StandInRecord[];
  /** create/update/delete calls that were accepted */
  mutations: number;
  /** every request, accepted or not */
  requests: number;
  /** requests answered "rate limited" before normal service resumes */
  throttleNext: number;
  /** raw request texts seen (URL, headers, body), for checks on what went over the wire */
  seen: string[];
  stop(): Promise<void>;
}

interface Credentials {
  zone: string;
  keyId: string;
  secret: string;
}

let nextId = 1000;

type StandInState = Omit<RunningStandIn, 'url' | 'stop'>;

function add(state: StandInState, record: Omit<StandInRecord, 'id'>): string {
  const id = String(nextId++);
  state.records.push({ ...record, id });
  return id;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function listen(
  state: StandInState,
  handle: (request: IncomingMessage, body: string, response: ServerResponse) => void,
): Promise<RunningStandIn> {
  const server: Server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        state.requests++;
        state.seen.push(`${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${body}`);
        handle(request, body, response);
      },
      () => response.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const running = state as RunningStandIn;
  running.url = `http://127.0.0.1:${port}`;
  running.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return running;
}

const freshState = (): StandInState => ({
  records: [],
  mutations: 0,
  requests: 0,
  throttleNext: 0,
  seen: [],
});

// ---------------------------------------------------------------------------------------------
// Alibaba Cloud DNS, RPC style, signature version 1.0 (HMAC-SHA1 over the "POP" canonical query).

/** RFC 3986 unreserved characters stay; all else %XY (upper case); space is %20. */
function percentEncode(value: string): string {
  return Buffer.from(value, 'utf8')
    .toString('binary')
    .split('')
    .map((char) =>
      /[A-Za-z0-9\-_.~]/.test(char)
        ? char
        : `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** The documented algorithm, as the stand-in recomputes it from the received parameters. */
export function popSignature(params: Map<string, string>, secret: string): string {
  const canonical = [...params.keys()]
    .filter((key) => key !== 'Signature')
    .sort()
    .map((key) => `${percentEncode(key)}=${percentEncode(params.get(key) ?? '')}`)
    .join('&');
  const stringToSign = `GET&${percentEncode('/')}&${percentEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign, 'utf8').digest('base64');
}

export async function startAlidnsStandIn(credentials: Credentials): Promise<RunningStandIn> {
  const nonces = new Set<string>();
  const state = freshState();
  const fail = (response: ServerResponse, status: number, code: string, message: string) =>
    send(response, status, {
      RequestId: 'standin',
      HostId: 'alidns.aliyuncs.com',
      Code: code,
      Message: message,
    });
  const running = await listen(state, (request, _body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (request.method !== 'GET' || url.pathname !== '/')
      return fail(response, 404, 'InvalidAction.NotFound', 'path');
    const params = new Map<string, string>();
    // Decoded per RFC 3986 (no + for space), as the service does.
    for (const part of (url.search.slice(1) || '').split('&')) {
      if (!part) continue;
      const [key = '', value = ''] = part.split('=');
      params.set(decodeURIComponent(key), decodeURIComponent(value));
    }
    for (const required of [
      'AccessKeyId',
      'Action',
      'Format',
      'Version',
      'Signature',
      'SignatureMethod',
      'SignatureNonce',
      'SignatureVersion',
      'Timestamp',
    ]) {
      if (!params.get(required)) return fail(response, 400, 'MissingParameter', `${required} is mandatory`);
    }
    if (params.get('Version') !== '2015-01-09') return fail(response, 400, 'InvalidVersion', 'version');
    if (params.get('SignatureMethod') !== 'HMAC-SHA1' || params.get('SignatureVersion') !== '1.0') {
      return fail(response, 400, 'InvalidSignatureMethod', 'method');
    }
    const timestamp = params.get('Timestamp') ?? '';
    const when = Date.parse(timestamp);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(timestamp) || !Number.isFinite(when)) {
      return fail(
        response,
        400,
        'InvalidTimeStamp.Format',
        'Specified time stamp or date value is not well formatted.',
      );
    }
    if (Math.abs(Date.now() - when) > 15 * 60_000) {
      return fail(
        response,
        400,
        'InvalidTimeStamp.Expired',
        'Specified time stamp or date value is expired.',
      );
    }
    if (params.get('AccessKeyId') !== credentials.keyId) {
      return fail(response, 404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    }
    if (!safeEqual(popSignature(params, credentials.secret), params.get('Signature') ?? '')) {
      return fail(
        response,
        400,
        'SignatureDoesNotMatch',
        'Specified signature is not matched with our calculation.',
      );
    }
    const nonce = params.get('SignatureNonce') ?? '';
    if (nonces.has(nonce))
      return fail(response, 400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    nonces.add(nonce);
    if (state.throttleNext > 0) {
      state.throttleNext--;
      return fail(response, 400, 'Throttling.User', 'Request was denied due to user flow control.');
    }
    const zone = credentials.zone;
    const fqdn = (rr: string) => (rr === '@' ? zone : `${rr.toLowerCase()}.${zone}`);
    const relative = (name: string) => (name === zone ? '@' : name.slice(0, -(zone.length + 1)));
    const view = (record: StandInRecord) => ({
      RecordId: record.id,
      RR: relative(record.name),
      Type: record.type,
      Value: record.value,
      TTL: record.ttl,
      ...(record.priority !== undefined ? { Priority: record.priority } : {}),
      DomainName: zone,
      Line: 'default',
      Status: 'ENABLE',
      Locked: false,
    });
    const action = params.get('Action');
    const recordFrom = () => ({
      name: fqdn(params.get('RR') ?? '@'),
      type: params.get('Type') ?? '',
      value: params.get('Value') ?? '',
      ttl: Number(params.get('TTL') ?? 600),
      ...(params.get('Type') === 'MX' ? { priority: Number(params.get('Priority') ?? 10) } : {}),
    });
    const byId = () => state.records.find((record) => record.id === params.get('RecordId'));
    switch (action) {
      case 'DescribeDomainRecords': {
        if (params.get('DomainName') !== zone)
          return fail(
            response,
            400,
            'InvalidDomainName.NoExist',
            'The specified domain name does not exist.',
          );
        const keyword = params.get('RRKeyWord')?.toLowerCase();
        const type = params.get('TypeKeyWord');
        // RRKeyWord is a fuzzy (substring) match in the real API.
        const matches = state.records.filter(
          (record) =>
            (!keyword || relative(record.name).includes(keyword)) && (!type || record.type === type),
        );
        const size = Number(params.get('PageSize') ?? 20);
        const page = Number(params.get('PageNumber') ?? 1);
        return send(response, 200, {
          RequestId: 'standin',
          TotalCount: matches.length,
          PageNumber: page,
          PageSize: size,
          DomainRecords: { Record: matches.slice((page - 1) * size, page * size).map(view) },
        });
      }
      case 'AddDomainRecord': {
        if (params.get('DomainName') !== zone)
          return fail(
            response,
            400,
            'InvalidDomainName.NoExist',
            'The specified domain name does not exist.',
          );
        const record = recordFrom();
        if (
          state.records.some(
            (r) => r.name === record.name && r.type === record.type && r.value === record.value,
          )
        ) {
          return fail(response, 400, 'DomainRecordDuplicate', 'The DNS record already exists.');
        }
        state.mutations++;
        return send(response, 200, { RequestId: 'standin', RecordId: add(state, record) });
      }
      case 'UpdateDomainRecord': {
        const existing = byId();
        if (!existing)
          return fail(response, 400, 'DomainRecordNotBelongToUser', 'The DNS record does not exist.');
        const record = recordFrom();
        // The real API refuses an update that changes nothing.
        if (
          existing.name === record.name &&
          existing.value === record.value &&
          existing.priority === record.priority &&
          existing.ttl === record.ttl
        ) {
          return fail(response, 400, 'DomainRecordDuplicate', 'The DNS record already exists.');
        }
        Object.assign(existing, record);
        state.mutations++;
        return send(response, 200, { RequestId: 'standin', RecordId: existing.id });
      }
      case 'DeleteDomainRecord': {
        const existing = byId();
        if (!existing)
          return fail(response, 400, 'DomainRecordNotBelongToUser', 'The DNS record does not exist.');
        state.records.splice(state.records.indexOf(existing), 1);
        state.mutations++;
        return send(response, 200, { RequestId: 'standin', RecordId: existing.id });
      }
      default:
        return fail(response, 404, 'InvalidAction.NotFound', 'Specified api is not found.');
    }
  });
  return running;
}

// ---------------------------------------------------------------------------------------------
// DNSPod through Tencent Cloud API 3.0, TC3-HMAC-SHA256.

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

export async function startDnspodStandIn(credentials: Credentials): Promise<RunningStandIn> {
  const state = freshState();
  const fail = (response: ServerResponse, code: string, message: string) =>
    // API 3.0 answers errors with HTTP 200 and Response.Error.
    send(response, 200, { Response: { Error: { Code: code, Message: message }, RequestId: 'standin' } });
  const ok = (response: ServerResponse, data: Record<string, unknown>) =>
    send(response, 200, { Response: { ...data, RequestId: 'standin' } });
  const running = await listen(state, (request, body, response) => {
    if (request.method !== 'POST') return fail(response, 'InvalidParameter', 'method');
    const header = (name: string) => String(request.headers[name] ?? '');
    const auth =
      /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/([a-z]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
        header('authorization'),
      );
    if (!auth) return fail(response, 'AuthFailure.InvalidAuthorization', 'Authorization 格式错误');
    const [, secretId, date, service, signedHeaders = '', signature = ''] = auth;
    const timestamp = Number(header('x-tc-timestamp'));
    if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) {
      return fail(
        response,
        'AuthFailure.SignatureExpire',
        '签名过期。Timestamp 和服务器时间相差不得超过五分钟',
      );
    }
    if (service !== 'dnspod' || date !== new Date(timestamp * 1000).toISOString().slice(0, 10)) {
      return fail(response, 'AuthFailure.InvalidAuthorization', 'Credential 错误');
    }
    if (secretId !== credentials.keyId) return fail(response, 'AuthFailure.SecretIdNotFound', '密钥不存在');
    if (!signedHeaders.split(';').includes('host') || !signedHeaders.split(';').includes('content-type')) {
      return fail(
        response,
        'AuthFailure.InvalidAuthorization',
        'SignedHeaders 必须包含 content-type 和 host',
      );
    }
    // Canonical headers: names and values in lower case, trimmed, in SignedHeaders order.
    const canonicalHeaders = signedHeaders
      .split(';')
      .map((name) => `${name}:${header(name).trim().toLowerCase()}\n`)
      .join('');
    const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256(body)].join('\n');
    const scope = `${date}/dnspod/tc3_request`;
    const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${scope}\n${sha256(canonicalRequest)}`;
    const key = hmac(hmac(hmac(`TC3${credentials.secret}`, date ?? ''), 'dnspod'), 'tc3_request');
    const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
    if (!safeEqual(expected, signature))
      return fail(response, 'AuthFailure.SignatureFailure', '请求签名验证失败');
    if (header('x-tc-version') !== '2021-03-23') return fail(response, 'InvalidParameter', 'version');
    if (state.throttleNext > 0) {
      state.throttleNext--;
      return fail(response, 'RequestLimitExceeded', '请求的次数超过了频率限制');
    }
    let params: Record<string, unknown>;
    try {
      params = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return fail(response, 'InvalidParameter', 'body');
    }
    const zone = credentials.zone;
    if (params.Domain !== zone) return fail(response, 'ResourceNotFound.NoDataOfDomain', '域名不存在');
    const fqdn = (sub: string) => (sub === '@' ? zone : `${sub.toLowerCase()}.${zone}`);
    const relative = (name: string) => (name === zone ? '@' : name.slice(0, -(zone.length + 1)));
    const recordFrom = () => ({
      name: fqdn(String(params.SubDomain ?? '@')),
      type: String(params.RecordType ?? ''),
      value: String(params.Value ?? ''),
      ttl: Number(params.TTL ?? 600),
      ...(params.RecordType === 'MX' ? { priority: Number(params.MX ?? 10) } : {}),
    });
    const byId = () => state.records.find((record) => record.id === String(params.RecordId));
    switch (header('x-tc-action')) {
      case 'DescribeRecordList': {
        const sub = typeof params.Subdomain === 'string' ? params.Subdomain.toLowerCase() : undefined;
        const matches = state.records.filter(
          (record) =>
            (!sub || relative(record.name) === sub) &&
            (!params.RecordType || record.type === params.RecordType),
        );
        if (matches.length === 0) return fail(response, 'ResourceNotFound.NoDataOfRecord', '记录列表为空');
        return ok(response, {
          RecordCountInfo: { TotalCount: matches.length, ListCount: matches.length, SubdomainCount: 1 },
          RecordList: matches.map((record) => ({
            RecordId: Number(record.id),
            Name: relative(record.name),
            Type: record.type,
            Value: record.type === 'MX' ? `${record.value}.` : record.value,
            TTL: record.ttl,
            ...(record.priority !== undefined ? { MX: record.priority } : { MX: 0 }),
            Line: '默认',
            Status: 'ENABLE',
          })),
        });
      }
      case 'CreateRecord': {
        state.mutations++;
        return ok(response, { RecordId: Number(add(state, recordFrom())) });
      }
      case 'ModifyRecord': {
        const existing = byId();
        if (!existing) return fail(response, 'InvalidParameter.RecordIdInvalid', '记录编号错误');
        Object.assign(existing, recordFrom());
        state.mutations++;
        return ok(response, { RecordId: Number(existing.id) });
      }
      case 'DeleteRecord': {
        const existing = byId();
        if (!existing) return fail(response, 'InvalidParameter.RecordIdInvalid', '记录编号错误');
        state.records.splice(state.records.indexOf(existing), 1);
        state.mutations++;
        return ok(response, {});
      }
      default:
        return fail(response, 'InvalidAction', '接口不存在');
    }
  });
  return running;
}

// ---------------------------------------------------------------------------------------------
// Cloudflare API v4: Bearer token, JSON envelope.

export async function startCloudflareStandIn(
  credentials: Omit<Credentials, 'keyId'>,
): Promise<RunningStandIn> {
  const state = freshState();
  const zoneId = 'c0ffee00c0ffee00c0ffee00c0ffee00';
  const envelope = (
    response: ServerResponse,
    status: number,
    result: unknown,
    errors: Array<{ code: number; message: string }> = [],
  ) => send(response, status, { success: errors.length === 0, errors, messages: [], result });
  const running = await listen(state, (request, body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const authorization = String(request.headers.authorization ?? '');
    if (!authorization.startsWith('Bearer ')) {
      return envelope(response, 400, null, [{ code: 6003, message: 'Invalid request headers' }]);
    }
    if (!safeEqual(authorization.slice(7), credentials.secret)) {
      return envelope(response, 403, null, [{ code: 10000, message: 'Authentication error' }]);
    }
    if (state.throttleNext > 0) {
      state.throttleNext--;
      return envelope(response, 429, null, [
        { code: 971, message: 'Please wait and consider throttling your request speed' },
      ]);
    }
    const path = url.pathname.replace(/^\/client\/v4/, '');
    if (request.method === 'GET' && path === '/zones') {
      const name = url.searchParams.get('name');
      const zones =
        name === credentials.zone ? [{ id: zoneId, name: credentials.zone, status: 'active' }] : [];
      return send(response, 200, {
        success: true,
        errors: [],
        messages: [],
        result: zones,
        result_info: {
          page: 1,
          per_page: 20,
          total_pages: 1,
          count: zones.length,
          total_count: zones.length,
        },
      });
    }
    const match = /^\/zones\/([^/]+)\/dns_records(?:\/([^/]+))?$/.exec(path);
    if (!match)
      return envelope(response, 404, null, [{ code: 7003, message: 'Could not route to the path' }]);
    if (match[1] !== zoneId)
      return envelope(response, 404, null, [
        { code: 7003, message: 'Could not route to /zones/..., perhaps your object identifier is invalid?' },
      ]);
    const view = (record: StandInRecord) => ({
      id: record.id,
      name: record.name,
      type: record.type,
      // TXT content comes back quoted, as Cloudflare now shows it.
      content: record.type === 'TXT' ? `"${record.value}"` : record.value,
      ttl: record.ttl,
      ...(record.priority !== undefined ? { priority: record.priority } : {}),
      proxied: false,
    });
    const parse = (): Omit<StandInRecord, 'id'> | null => {
      try {
        const input = JSON.parse(body) as {
          type?: string;
          name?: string;
          content?: string;
          ttl?: number;
          priority?: number;
        };
        if (!input.type || !input.name || typeof input.content !== 'string') return null;
        return {
          name: input.name.toLowerCase(),
          type: input.type,
          value: input.content.replace(/^"(.*)"$/s, '$1'),
          ttl: input.ttl ?? 1,
          ...(input.type === 'MX' ? { priority: input.priority ?? 10 } : {}),
        };
      } catch {
        return null;
      }
    };
    const id = match[2];
    if (!id && request.method === 'GET') {
      const name = url.searchParams.get('name');
      const type = url.searchParams.get('type');
      const found = state.records.filter(
        (record) => (!name || record.name === name) && (!type || record.type === type),
      );
      return send(response, 200, {
        success: true,
        errors: [],
        messages: [],
        result: found.map(view),
        result_info: {
          page: 1,
          per_page: 100,
          total_pages: 1,
          count: found.length,
          total_count: found.length,
        },
      });
    }
    if (!id && request.method === 'POST') {
      const record = parse();
      if (!record) return envelope(response, 400, null, [{ code: 9000, message: 'DNS name is invalid' }]);
      state.mutations++;
      const newId = add(state, record);
      return envelope(response, 200, view({ ...record, id: newId }));
    }
    const existing = state.records.find((record) => record.id === id);
    if (!existing) return envelope(response, 404, null, [{ code: 81044, message: 'Record does not exist.' }]);
    if (request.method === 'PUT') {
      const record = parse();
      if (!record) return envelope(response, 400, null, [{ code: 9000, message: 'DNS name is invalid' }]);
      Object.assign(existing, record);
      state.mutations++;
      return envelope(response, 200, view(existing));
    }
    if (request.method === 'DELETE') {
      state.records.splice(state.records.indexOf(existing), 1);
      state.mutations++;
      return envelope(response, 200, { id: existing.id });
    }
    return envelope(response, 405, null, [{ code: 10405, message: 'Method not allowed' }]);
  });
  return running;
}
