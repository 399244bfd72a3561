import { request } from 'node:http';
import { connect } from 'node:net';
import type { TestServer } from '../support/test-server.js';

/**
 * An HTTP call from another loopback address (127.0.0.2, 127.0.0.3 …): the server listens on
 * 127.0.0.1 and Linux routes all of 127.0.0.0/8 to loopback, so the server sees `localAddress`.
 */
export function apiFrom(
  server: TestServer,
  localAddress: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const url = new URL(`${server.baseUrl}/api/${path.replace(/^\//, '')}`);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        localAddress,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    outgoing.on('error', reject);
    if (payload) outgoing.write(payload);
    outgoing.end();
  });
}

/** Connects to the SMTP listener from `localAddress` and returns the greeting's reply code. */
export function smtpGreetingFrom(server: TestServer, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: server.smtpPort, localAddress });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const line = /^(\d{3}) .*\r\n/m.exec(text);
      if (line) {
        socket.end('QUIT\r\n');
        resolve(Number(line[1]));
      }
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error('SMTP greeting timed out'));
    });
  });
}

/** Polls `check` until it holds (for what another process would see after its cache expires). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
