import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

/** Reads SMTP replies (RFC 5321 section 4.2: multi-line replies use "code-", the last "code "). */
function replyReader(socket: Socket) {
  let buffer = '';
  const waiting: ((reply: string) => void)[] = [];
  const ready: string[] = [];
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    for (;;) {
      const match = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(buffer);
      if (!match) break;
      const end = match.index + match[0].length;
      const reply = buffer.slice(0, end).trim();
      buffer = buffer.slice(end);
      const next = waiting.shift();
      if (next) next(reply);
      else ready.push(reply);
    }
  });
  return (): Promise<string> => {
    const early = ready.shift();
    if (early !== undefined) return Promise.resolve(early);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`SMTP 应答超时，已收到：${buffer}`)), 15_000);
      waiting.push((reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  };
}

/**
 * Sends one message over a real SMTP conversation (EHLO, MAIL, RCPT, DATA with dot-stuffing) and
 * resolves with the reply to the end of DATA, e.g. "250 …", or the refusal at RCPT.
 */
export async function sendSmtp(port: number, from: string, to: string, message: Buffer): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  const next = replyReader(socket);
  const say = async (line: string, expect: string): Promise<string> => {
    socket.write(`${line}\r\n`);
    const reply = await next();
    if (!reply.startsWith(expect)) throw new Error(`SMTP「${line}」的应答是：${reply}`);
    return reply;
  };
  try {
    const greeting = await next();
    if (!greeting.startsWith('220')) throw new Error(`SMTP 问候：${greeting}`);
    await say('EHLO e2e.test', '250');
    await say(`MAIL FROM:<${from}> BODY=8BITMIME`, '250');
    socket.write(`RCPT TO:<${to}>\r\n`);
    const rcpt = await next();
    if (!rcpt.startsWith('250')) return rcpt;
    await say('DATA', '354');
    const text = message.toString('latin1').replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    socket.write(Buffer.from(`${text.endsWith('\r\n') ? text : `${text}\r\n`}.\r\n`, 'latin1'));
    const done = await next();
    socket.write('QUIT\r\n');
    return done;
  } finally {
    socket.end();
  }
}

/** A local web server that records every request path, to prove what the mail frame loaded. */
export interface RecordingServer {
  origin: string;
  requests: string[];
  close: () => Promise<void>;
}

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=',
  'base64',
);

export function startRecordingServer(): Promise<RecordingServer> {
  const requests: string[] = [];
  const server: Server = createHttpServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
    response.end(PIXEL);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
