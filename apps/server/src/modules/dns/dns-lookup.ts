import { Resolver } from 'node:dns/promises';

/** What one look-up found: records, none (NXDOMAIN / NODATA), or no usable answer. */
export type LookupResult<T> =
  | { kind: 'found'; values: T[] }
  | { kind: 'none' }
  | { kind: 'timeout'; message: string }
  | { kind: 'error'; message: string };

export interface MxValue {
  priority: number;
  exchange: string;
}

export interface DnsLookup {
  mx(name: string): Promise<LookupResult<MxValue>>;
  /** each TXT record with its character-strings joined (RFC 7208 3.3, RFC 6376 3.6.2.2) */
  txt(name: string): Promise<LookupResult<string>>;
  /** IPv4 and IPv6 addresses (A and AAAA) */
  a(name: string): Promise<LookupResult<string>>;
  aaaa(name: string): Promise<LookupResult<string>>;
  /** servers asked, for messages */
  servers: string[];
  cancel(): void;
}

export interface LookupOptions {
  /** `ip` or `ip:port` entries (DNS_SERVERS); empty = the system's resolvers */
  servers: string[];
  /** per attempt */
  timeoutMs?: number;
  tries?: number;
  /** a hard limit for the whole look-up, whatever the resolver library does with retries */
  deadlineMs?: number;
}

const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND', 'ENONAME']);
const NOT_ANSWERING = new Set(['ETIMEOUT', 'ECONNREFUSED', 'ECANCELLED', 'ECANCELED']);

/**
 * Look-ups through the configured resolvers. Each check gets its own Resolver, so a deadline can
 * cancel exactly its own queries; a resolver that does not answer becomes a `timeout` result within
 * `deadlineMs`, never a hanging request.
 */
export function createDnsLookup(options: LookupOptions): DnsLookup {
  const timeoutMs = options.timeoutMs ?? 1000;
  const tries = options.tries ?? 2;
  const deadlineMs = options.deadlineMs ?? 4000;
  const resolver = new Resolver({ timeout: timeoutMs, tries });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  const servers = resolver.getServers();

  async function lookup<T>(query: () => Promise<T[]>): Promise<LookupResult<T>> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<LookupResult<T>>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            kind: 'timeout',
            message: `DNS 服务器（${servers.join('、')}）在 ${deadlineMs / 1000} 秒内没有应答`,
          }),
        deadlineMs,
      );
    });
    const answer = query().then(
      (values): LookupResult<T> => (values.length > 0 ? { kind: 'found', values } : { kind: 'none' }),
      (error: NodeJS.ErrnoException): LookupResult<T> => {
        const code = String(error.code ?? '');
        if (NO_RECORDS.has(code)) return { kind: 'none' };
        if (NOT_ANSWERING.has(code)) {
          return {
            kind: 'timeout',
            message:
              code === 'ECONNREFUSED'
                ? `DNS 服务器（${servers.join('、')}）拒绝连接，没有应答`
                : `查询超时：DNS 服务器（${servers.join('、')}）没有应答`,
          };
        }
        return { kind: 'error', message: `DNS 查询失败（${code || error.message}）` };
      },
    );
    try {
      return await Promise.race([answer, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    servers,
    mx: (name) => lookup(() => resolver.resolveMx(name)),
    txt: (name) => lookup(async () => (await resolver.resolveTxt(name)).map((strings) => strings.join(''))),
    a: (name) => lookup(() => resolver.resolve4(name)),
    aaaa: (name) => lookup(() => resolver.resolve6(name)),
    cancel: () => resolver.cancel(),
  };
}
