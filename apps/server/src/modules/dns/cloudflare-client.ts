import {
  type ApiRecord,
  type ApiRecordType,
  bareName,
  callApi,
  type DnsApiAccount,
  type DnsApiClient,
  DnsApiError,
  type WantedApiRecord,
} from './dns-api.js';

/**
 * Cloudflare API v4: `Authorization: Bearer <API token>`, every answer the envelope
 * `{ success, errors: [{ code, message }], result }`. Names are fully qualified.
 */
interface Envelope {
  success?: boolean;
  errors?: Array<{ code?: number; message?: string }>;
  result?: unknown;
  result_info?: { total_pages?: number };
}

interface CloudflareRecord {
  id?: string;
  name?: string;
  type?: string;
  content?: string;
  priority?: number;
}

/** 9109 invalid token, 10000 authentication error, 6003/6111 malformed Authorization header. */
const AUTH_CODES = new Set([9103, 9106, 9109, 10000, 10001, 6003, 6111]);

/**
 * TXT content may come back quoted, long values as several character-strings (`"a" "b"`,
 * RFC 1035 section 3.3.14); compare the joined text.
 */
export function unquoteTxt(content: string): string {
  const trimmed = content.trim();
  if (!trimmed.startsWith('"')) return content;
  const parts = [...trimmed.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) =>
    (match[1] ?? '').replace(/\\(.)/g, '$1'),
  );
  return parts.length > 0 ? parts.join('') : content;
}

export function createCloudflareClient(account: DnsApiAccount): DnsApiClient {
  let zoneId: string | null = null;

  async function call(method: string, path: string, body?: unknown): Promise<Envelope> {
    const response = await callApi(`${account.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${account.secret}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const envelope = (response.json ?? {}) as Envelope;
    if (response.status >= 400 || envelope.success !== true) {
      const first = envelope.errors?.[0];
      const code = first?.code ?? 0;
      const message = String(first?.message ?? '').slice(0, 200);
      if (response.status === 429 || code === 971 || code === 10429) {
        throw new DnsApiError('rateLimited', String(code || 429), message);
      }
      if (response.status === 401 || response.status === 403 || AUTH_CODES.has(code)) {
        throw new DnsApiError('auth', String(code || response.status), message);
      }
      if (code === 7003 || code === 1001) throw new DnsApiError('zone', String(code), message);
      throw new DnsApiError('rejected', String(code || `HTTP ${response.status}`), message);
    }
    return envelope;
  }

  async function zone(): Promise<string> {
    if (zoneId) return zoneId;
    const found = await call('GET', `/zones?name=${encodeURIComponent(account.zone)}`);
    const zones = (Array.isArray(found.result) ? found.result : []) as Array<{ id?: string; name?: string }>;
    const match = zones.find((entry) => bareName(entry.name ?? '') === account.zone && entry.id);
    if (!match?.id || !/^[A-Za-z0-9]+$/.test(match.id)) {
      throw new DnsApiError('zone', 'zone not found', account.zone);
    }
    zoneId = match.id;
    return zoneId;
  }

  const recordBody = (record: WantedApiRecord) => ({
    type: record.type,
    name: record.name,
    content: record.value,
    ttl: record.ttl,
    ...(record.type === 'MX' ? { priority: record.priority ?? 10 } : {}),
  });
  const recordPath = async (id: string) => {
    if (!/^[A-Za-z0-9]+$/.test(id)) throw new DnsApiError('badResponse', 'record id', id.slice(0, 40));
    return `/zones/${await zone()}/dns_records/${id}`;
  };

  return {
    label: 'Cloudflare',
    async list(name: string, type: ApiRecordType): Promise<ApiRecord[]> {
      const id = await zone();
      const found: ApiRecord[] = [];
      for (let page = 1; page <= 20; page++) {
        const query = `type=${type}&name=${encodeURIComponent(name)}&per_page=100&page=${page}`;
        const envelope = await call('GET', `/zones/${id}/dns_records?${query}`);
        const records = (Array.isArray(envelope.result) ? envelope.result : []) as CloudflareRecord[];
        for (const record of records) {
          if (record.type !== type || bareName(record.name ?? '') !== name || !record.id) continue;
          found.push({
            id: record.id,
            name,
            type,
            value: type === 'MX' ? bareName(record.content ?? '') : unquoteTxt(record.content ?? ''),
            ...(typeof record.priority === 'number' ? { priority: record.priority } : {}),
          });
        }
        if (page >= (envelope.result_info?.total_pages ?? 1)) break;
      }
      return found;
    },
    async create(record) {
      await call('POST', `/zones/${await zone()}/dns_records`, recordBody(record));
    },
    async update(id, record) {
      await call('PUT', await recordPath(id), recordBody(record));
    },
    async delete(id) {
      await call('DELETE', await recordPath(id));
    },
  };
}
