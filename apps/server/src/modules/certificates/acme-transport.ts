import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { rootCertificates } from 'node:tls';

/** What acme-client's HttpClient expects back from `request` (the shape of an axios response). */
export interface AcmeHttpResponse {
  status: number;
  headers: Record<string, string>;
  data: unknown;
}

export type AcmeRequest = (
  url: string,
  method: string,
  options?: { data?: unknown; headers?: Record<string, string> },
) => Promise<AcmeHttpResponse>;

/** A directory, an order or a certificate chain is a few KiB; anything far larger is not an ACME server. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * The HTTPS requests of one ACME client, in place of acme-client's shared axios instance (pinned
 * acme-client 5.4.0 sends every request through `client.http.request`). Ours has what that one
 * lacks per client: its own trusted roots (ACME_CA_BUNDLE, for a private CA or Pebble), a timeout
 * per request, a bounded answer, no retries with sleeps (the scheduler backs off instead), and an
 * AbortSignal so that closing the server ends an order in flight at once.
 */
export function createAcmeTransport(options: {
  caBundle: string | null;
  timeoutMs: number;
  signal: AbortSignal;
}): { request: AcmeRequest; close(): void } {
  const ca = options.caBundle ? [...rootCertificates, readFileSync(options.caBundle, 'utf8')] : undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: 4, ...(ca ? { ca } : {}) });

  const send: AcmeRequest = (url, method, requestOptions = {}) =>
    new Promise((resolve, reject) => {
      if (options.signal.aborted) return reject(new Error('aborted'));
      const target = new URL(url);
      // RFC 8555 section 6.1: every ACME request goes over HTTPS.
      if (target.protocol !== 'https:') return reject(new Error(`ACME 地址必须是 https：${target.origin}`));
      const body =
        requestOptions.data === undefined
          ? undefined
          : Buffer.from(
              typeof requestOptions.data === 'string'
                ? requestOptions.data
                : JSON.stringify(requestOptions.data),
            );
      const outgoing = request(
        target,
        {
          method: method.toUpperCase(),
          agent,
          signal: options.signal,
          timeout: options.timeoutMs,
          headers: {
            'User-Agent': 'youju-acme (acme-client 5.4.0)',
            ...(requestOptions.headers ?? {}),
            // RFC 8555 section 6.2: every POST carries a JWS; acme-client's own request set this.
            'Content-Type': 'application/jose+json',
            ...(body ? { 'Content-Length': String(body.length) } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) {
              response.destroy(new Error('ACME 服务器的应答过大'));
              return;
            }
            chunks.push(chunk);
          });
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined)
                headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
            }
            let data: unknown = text;
            if (/json/i.test(headers['content-type'] ?? '') && text) {
              try {
                data = JSON.parse(text);
              } catch {
                return reject(new Error('ACME 服务器返回了无效的 JSON'));
              }
            }
            resolve({ status: response.statusCode ?? 0, headers, data });
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`连接 ${target.host} 超时`)));
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  return { request: send, close: () => agent.destroy() };
}
