import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers a request: a status (and body), or `hold` (never answers). */
export type Answer = number | { status: number; body?: string; headers?: Record<string, string> } | 'hold';

/**
 * A real HTTP server on loopback standing in for a webhook receiver (or the Telegram Bot API):
 * it records every request and answers from `answers` in order, then with `fallback`.
 */
export async function startReceiver(options: { answers?: Answer[]; fallback?: Answer } = {}) {
  const received: ReceivedRequest[] = [];
  const answers = [...(options.answers ?? [])];
  let fallback: Answer = options.fallback ?? 200;
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const answer = answers.shift() ?? fallback;
      if (answer === 'hold') {
        held.push(response);
        return;
      }
      const { status, body, headers } = typeof answer === 'number' ? { status: answer, body: 'ok' } : answer;
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(body ?? '{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    received,
    setFallback(answer: Answer) {
      fallback = answer;
    },
    async stop() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** What a receiver does with X-Youju-Signature: recompute it over "<timestamp>.<body>" and compare. */
export function verifySignature(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const timestamp = String(headers['x-youju-timestamp'] ?? '');
  const given = String(headers['x-youju-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
