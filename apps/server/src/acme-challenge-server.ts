import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface AcmeChallengeServerHandle {
  port: number;
  server: Server;
  close(): Promise<void>;
}

const PREFIX = '/.well-known/acme-challenge/';
/** RFC 8555 section 8.3: a token is base64url (section 6.1: no padding), at least 128 bits of entropy. */
const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;
/** A validation is one short GET; nobody else has business here. */
const MAX_CONNECTIONS = 64;
const TIMEOUT_MS = 5000;

/**
 * The HTTP-01 responder (`ACME_HTTP_PORT`, usually 80): answers only
 * `GET /.well-known/acme-challenge/<token>` with the key authorization of an order in flight (RFC
 * 8555 section 8.3) and 404 for anything else. Bounded: a connection cap, short header and request
 * timeouts, small headers, no keep-alive, no body read. Started only when ACME uses HTTP-01; closes
 * before the app does.
 */
export async function startAcmeChallengeServer(
  app: FastifyInstance,
  options: { port?: number | null; host?: string } = {},
): Promise<AcmeChallengeServerHandle | null> {
  const { config, services } = app;
  if (config.acme?.challenge !== 'http-01') return null;
  const port = options.port === undefined ? config.acme.httpPort : options.port;
  if (port === null) return null;

  const server = createServer({
    maxHeaderSize: 4096,
    requestTimeout: TIMEOUT_MS,
    headersTimeout: TIMEOUT_MS,
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.keepAliveTimeout = 1;
  server.timeout = TIMEOUT_MS;
  server.on('request', (request, response) => {
    void respond(request, response);
  });
  const respond = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const token = path.startsWith(PREFIX) ? path.slice(PREFIX.length) : '';
    let answer: string | null;
    try {
      // Only well-formed tokens reach the lookup (on PostgreSQL a primary-key read).
      answer =
        (request.method === 'GET' || request.method === 'HEAD') && TOKEN.test(token)
          ? await services.acme.challengeResponse(token)
          : null;
    } catch (error) {
      app.log.warn(`acme-challenge: lookup failed: ${(error as Error).message}`);
      if (!response.headersSent) {
        response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
        response.end('unavailable\n');
      }
      request.resume();
      return;
    }
    if (response.destroyed) return;
    response.shouldKeepAlive = false;
    if (answer === null) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      response.end('not found\n');
    } else {
      response.writeHead(200, { 'Content-Type': 'application/octet-stream', Connection: 'close' });
      response.end(request.method === 'HEAD' ? undefined : answer);
    }
    // The request body, if any, is never read: drop the socket once the answer is out.
    request.resume();
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Too large a request line or header gets its 431 (RFC 6585 section 5), other junk a 400; then close.
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    else socket.destroy();
  });

  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  app.addHook('preClose', close);

  const host = options.host ?? config.host;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // The mail service runs on without it; the ACME status shows the failed validation.
    app.log.error(
      `ACME HTTP-01 监听未启动（${host}:${port}：${(error as Error).message}），请检查 ACME_HTTP_PORT 是否被占用或改用 ACME_CHALLENGE=dns-01`,
    );
    return null;
  }
  server.on('error', (error) => app.log.warn(`acme-challenge: ${error.message}`));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : port, server, close };
}
