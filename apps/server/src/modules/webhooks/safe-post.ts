import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../lib/public-address.js';

/** What a POST came to: the server's status, or why there was none. */
export type PostOutcome =
  | { kind: 'response'; statusCode: number; durationMs: number; body: string }
  | { kind: 'error'; error: string; durationMs: number; refused: boolean };

export interface PostOptions {
  /** WEBHOOK_ALLOW_PRIVATE: loopback, private and link-local targets are allowed */
  allowPrivate: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /** what is kept of the answer (the rest is not read) */
  maxResponseBytes?: number;
}

/** A target that resolves to an address this service must not call (server-side request forgery). */
export class PrivateTargetError extends Error {
  readonly code = 'YOUJU_PRIVATE_TARGET';
}

const refusal = (host: string, address: string) =>
  new PrivateTargetError(
    `目标 ${host} 指向本机、内网或保留地址（${address}），已拒绝；需要时请管理员设置 WEBHOOK_ALLOW_PRIVATE=1`,
  );

/** The host of a URL as `isIP` reads it (IPv6 without its brackets). */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves `host` and refuses it when any of its addresses is not public; answers the addresses
 * that were checked, so the connection goes to one of them and never to a second, different DNS
 * answer (no DNS-rebinding gap between the check and the connection).
 */
export async function checkedAddresses(host: string, allowPrivate: boolean): Promise<LookupAddress[]> {
  if (isIP(host)) {
    if (!allowPrivate && !isPublicAddress(host)) throw refusal(host, host);
    return [{ address: host, family: isIP(host) }];
  }
  // RFC 6761 section 6.3: localhost names are loopback whatever a resolver says (or fails to say).
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!allowPrivate && (name === 'localhost' || name.endsWith('.localhost')))
    throw refusal(host, '127.0.0.1');
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, found) =>
      error ? reject(error) : resolve(found),
    ),
  );
  if (addresses.length === 0) throw new Error(`无法解析 ${host}`);
  if (!allowPrivate) {
    const bad = addresses.find((entry) => !isPublicAddress(entry.address));
    if (bad) throw refusal(host, bad.address);
  }
  return addresses;
}

/** Refuses at once a URL whose host is a literal or resolvable private address (for add and edit). */
export async function refusePrivateUrl(text: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = bareHost(new URL(text));
  try {
    await checkedAddresses(host, false);
  } catch (error) {
    // A name that does not resolve now may later: the delivery checks again before connecting.
    if (error instanceof PrivateTargetError) throw error;
  }
}

/**
 * POSTs `body` to `url` with `headers`: the host resolved and checked first and the connection
 * made to the checked address (TLS still verifies the name), redirects not followed (a 3xx is an
 * answer like any other), the whole exchange cut at `timeoutMs`, and only the first
 * `maxResponseBytes` of the answer read.
 */
export async function safePost(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const limit = options.maxResponseBytes ?? 4096;
  let target: URL;
  try {
    target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('只支持 http 和 https');
  } catch (error) {
    return {
      kind: 'error',
      error: `地址无效：${(error as Error).message}`,
      durationMs: elapsed(),
      refused: true,
    };
  }
  const host = bareHost(target);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), options.timeoutMs);
  const onStop = () => controller.abort(new Error('stopped'));
  options.signal?.addEventListener('abort', onStop, { once: true });
  try {
    const addresses = await checkedAddresses(host, options.allowPrivate);
    const [first] = addresses;
    if (!first) throw new Error(`无法解析 ${host}`);
    const client = target.protocol === 'https:' ? https : http;
    return await new Promise<PostOutcome>((resolve, reject) => {
      const request = client.request(
        target,
        {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json; charset=utf-8',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'Youju-Webhook/1',
          },
          signal: controller.signal,
          agent: false,
          // The connection goes to the address checked above, whatever DNS says now.
          lookup: ((
            _name: string,
            lookupOptions: { all?: boolean },
            callback: (...args: unknown[]) => void,
          ) => {
            if (lookupOptions?.all) callback(null, addresses);
            else callback(null, first.address, first.family);
          }) as unknown as typeof dnsLookup,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < limit) chunks.push(chunk.subarray(0, limit - size));
            size += chunk.length;
            // Enough read: the rest of a large or endless answer is not waited for.
            if (size >= limit) response.destroy();
          });
          const finish = () =>
            resolve({
              kind: 'response',
              statusCode: response.statusCode ?? 0,
              durationMs: elapsed(),
              body: Buffer.concat(chunks).toString('utf8'),
            });
          response.on('end', finish);
          response.on('close', finish);
          response.on('error', () => finish());
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  } catch (error) {
    const reason = controller.signal.aborted
      ? (controller.signal.reason as Error)?.message === 'stopped'
        ? '服务停止，投递中断'
        : `超过 ${Math.round(options.timeoutMs / 1000)} 秒没有完成`
      : (error as Error).message;
    return {
      kind: 'error',
      error: `${reason}`.slice(0, 300),
      durationMs: elapsed(),
      refused: error instanceof PrivateTargetError,
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onStop);
  }
}
