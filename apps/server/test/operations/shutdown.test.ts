import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expectOk, getRaw } from '../support/api.js';
import { freePort } from '../support/ports.js';
import { type ServerProcess, startServerProcess, useServerStore } from '../support/server-process.js';
import { SmtpClient, sendMail, simpleMessage, smtpLoad, splitAddedHeaders } from '../support/smtp-client.js';
import { waitFor } from '../support/wait-for.js';
import { startReceiver } from '../webhooks/webhook-helpers.js';

/**
 * SIGTERM under load (API.md "Operations"): the real program takes mail from concurrent senders
 * (some messages megabytes long, so some are mid-DATA at the signal) while an SMTP session idles, an
 * IMAP client IDLEs, a POP3 client is logged in, a browser holds the live inbox stream and the
 * webhook receiver never answers. After SIGTERM the program exits 0 within 10 s; the idle SMTP
 * session got 421 4.3.2, IMAP * BYE, POP3 -ERR, the stream a retry hint; after a restart on the
 * same data every message that got 250 is there byte for byte, and the interrupted webhook
 * deliveries are delivered, none recorded as failed.
 */
const ADMIN = { username: 'shutdownadmin', password: 'shutdown-admin-password' };
const MAILBOX_PASSWORD = 'shutdown-mailbox-pw1';
const store = useServerStore();

async function startServer(): Promise<{ server: ServerProcess; imapPort: number; pop3Port: number }> {
  const imapPort = await freePort();
  const pop3Port = await freePort();
  const server = await startServerProcess(store(), {
    MAIL_HOSTNAME: 'mx.shutdown.test',
    INIT_ADMIN_USER: ADMIN.username,
    INIT_ADMIN_PASSWORD: ADMIN.password,
    IMAP_PORT: String(imapPort),
    POP3_PORT: String(pop3Port),
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_RETRY_BASE_MS: '200',
  });
  await waitFor(() => /POP3 listening on/.test(server.output()), { what: 'the POP3 listener' });
  return { server, imapPort, pop3Port };
}

function message(to: string, index: number): Buffer {
  // Mostly small messages, every fifth one some megabytes so that some are mid-DATA at the signal.
  const payload = randomBytes(index % 5 === 0 ? 2 * 1024 * 1024 : 2048)
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
  return Buffer.from(
    `From: <load@sender.example>\r\nTo: <${to}>\r\nSubject: shutdown-${index}\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n${payload}\r\n`,
  );
}

/** A line-based mail client (IMAP, POP3) over plain TCP: what it sends, and everything it got. */
async function lineClient(port: number) {
  const socket: Socket = connect({ port, host: '127.0.0.1' });
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    send: (line: string) => socket.write(`${line}\r\n`),
    received: () => received,
    closed: () => closed,
    until: (pattern: RegExp, what: string) =>
      waitFor(() => pattern.test(received), {
        what: `${what} (got ${JSON.stringify(received.slice(-200))})`,
      }),
    destroy: () => socket.destroy(),
  };
}

describe('graceful shutdown', () => {
  it('exits 0 within 10 s under load, says goodbye to every session and loses nothing acknowledged', async () => {
    const receiver = await startReceiver({ fallback: 'hold' });
    try {
      const first = await startServer();
      const { server } = first;
      const login = await server.api('POST', 'login', { body: ADMIN });
      expectOk(login.body);
      const token = login.body.data.token;
      const domain = await server.api('POST', 'user/addDomain', {
        token,
        body: { name: 'shutdown.youju.test' },
      });
      expectOk(domain.body);
      const account = await server.api('POST', 'user/createEmailAccount', {
        token,
        body: { domainId: domain.body.data.id, localPart: 'load', password: MAILBOX_PASSWORD },
      });
      expectOk(account.body);
      const address = 'load@shutdown.youju.test';
      const hook = await server.api('POST', 'user/addWebhook', {
        token,
        body: { url: `${receiver.url}/mail` },
      });
      expectOk(hook.body);
      const hookId = hook.body.data.id;

      // A first message whose webhook POST is in flight (held by the receiver) at the signal.
      const firstMessage = simpleMessage(address, 'shutdown-webhook', 'held webhook');
      expect((await sendMail(server.smtpPort, { to: [address], content: firstMessage })).data?.code).toBe(
        250,
      );
      await waitFor(() => receiver.received.length > 0, { what: 'the webhook POST in flight' });

      // The sessions that must be told goodbye.
      const idleSmtp = await SmtpClient.connect(server.smtpPort);
      expect((await idleSmtp.read()).code).toBe(220);
      expect((await idleSmtp.command('EHLO idle.test')).code).toBe(250);

      const imap = await lineClient(first.imapPort);
      await imap.until(/^\* OK/m, 'the IMAP greeting');
      imap.send(`a LOGIN ${address} ${MAILBOX_PASSWORD}`);
      await imap.until(/^a OK/m, 'IMAP LOGIN');
      imap.send('b SELECT INBOX');
      await imap.until(/^b OK/m, 'IMAP SELECT');
      imap.send('c IDLE');
      await imap.until(/^\+ /m, 'IMAP IDLE');
      const imapBeforeSignal = imap.received().length;

      const pop3 = await lineClient(first.pop3Port);
      await pop3.until(/^\+OK/m, 'the POP3 greeting');
      pop3.send(`USER ${address}`);
      await pop3.until(/^\+OK[^\n]*\n\+OK/m, 'POP3 USER');
      pop3.send(`PASS ${MAILBOX_PASSWORD}`);
      await pop3.until(/^(\+OK[^\n]*\n){3}/m, 'POP3 PASS');
      // a deletion marked and never confirmed by QUIT: the shutdown must not apply it
      pop3.send('DELE 1');
      await pop3.until(/^(\+OK[^\n]*\n){4}/m, 'POP3 DELE');
      const pop3BeforeSignal = pop3.received().length;

      const events = await fetch(`${server.baseUrl}/api/user/events?token=${token}`);
      expect(events.headers.get('content-type')).toContain('text/event-stream');
      const streamed = (async () => {
        const reader = events.body?.getReader();
        let text = '';
        for (;;) {
          const chunk = await reader?.read();
          if (!chunk || chunk.done) return text;
          text += new TextDecoder().decode(chunk.value);
        }
      })();

      // SMTP load until the signal, and a little after: the listener then refuses or answers 421.
      const { sent, acknowledged, stop } = smtpLoad(server.smtpPort, address, (index) =>
        message(address, index),
      );
      await waitFor(() => acknowledged.size >= 15, {
        timeoutMs: 60_000,
        intervalMs: 20,
        what: '15 acknowledged messages',
      });

      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        server.process.once('exit', (code, signal) => resolve({ code, signal })),
      );
      const signalledAt = Date.now();
      server.process.kill('SIGTERM');
      const idleReply = await idleSmtp.read();
      const { code, signal } = await exited;
      const took = Date.now() - signalledAt;
      await stop();

      expect({ code, signal }, server.output().slice(-3000)).toEqual({ code: 0, signal: null });
      expect(took).toBeLessThan(10_000);
      // RFC 5321 section 3.8 with RFC 3463 4.3.2 (system not accepting network messages)
      expect(idleReply.code).toBe(421);
      expect(idleReply.text).toContain('4.3.2');
      await waitFor(() => imap.closed(), { what: 'the IMAP connection closed' });
      expect(imap.received().slice(imapBeforeSignal)).toMatch(/^\* BYE /m);
      await waitFor(() => pop3.closed(), { what: 'the POP3 connection closed' });
      expect(pop3.received().slice(pop3BeforeSignal)).toMatch(/^-ERR \[SYS\/TEMP\]/m);
      // the hint comes at the end, after the one of the stream's start
      const stream = await streamed;
      expect(stream.slice(stream.indexOf(': connected'))).toMatch(/\nretry: \d+\n/);
      // finished in order, not cut by the deadline
      expect(server.output()).toContain('"shut down"');
      expect(server.output()).not.toContain('shutdown: not finished');
      expect(acknowledged.size).toBeGreaterThanOrEqual(15);
      imap.destroy();
      pop3.destroy();

      // The same data, a new process: the receiver now answers at once.
      const stoppedAt = Date.now();
      receiver.setFallback(200);
      const second = (await startServer()).server;
      try {
        const again = await second.api('POST', 'login', { body: ADMIN });
        expectOk(again.body);
        const token2 = again.body.data.token;
        const stored = new Map<string, number>();
        for (let page = 1; ; page++) {
          const list = await second.api('GET', `user/getInbox?pageSize=100&page=${page}`, { token: token2 });
          expectOk(list.body);
          for (const item of list.body.data.list) stored.set(item.subject, item.id);
          if (list.body.data.list.length < 100) break;
        }
        // the POP3 DELE was never confirmed by QUIT
        expect(stored.has('shutdown-webhook')).toBe(true);
        for (const index of acknowledged)
          expect(stored.get(`shutdown-${index}`), `acknowledged shutdown-${index} is missing`).toBeDefined();
        for (const [subject, id] of stored) {
          if (subject === 'shutdown-webhook') continue;
          const { bytes } = await getRaw(second, `user/raw/${id}?token=${token2}`);
          const index = Number(subject.replace('shutdown-', ''));
          expect(
            splitAddedHeaders(bytes).message.equals(sent.get(index) ?? Buffer.alloc(0)),
            `${subject} differs`,
          ).toBe(true);
        }

        // The POST interrupted by the shutdown is made again, and recorded as delivered, not failed.
        await waitFor(
          () =>
            receiver.received.some(
              (request) => request.at > stoppedAt && request.body.includes('shutdown-webhook'),
            ),
          { timeoutMs: 30_000, what: 'the interrupted webhook delivered after the restart' },
        );
        await waitFor(
          async () => {
            const statuses: string[] = [];
            for (let page = 1; ; page++) {
              const log = await second.api(
                'GET',
                `user/getWebhookDeliveries?id=${hookId}&pageSize=100&page=${page}`,
                {
                  token: token2,
                },
              );
              expectOk(log.body);
              statuses.push(...log.body.data.list.map((delivery) => delivery.status));
              if (log.body.data.list.length < 100) break;
            }
            expect(statuses).not.toContain('failed');
            return statuses.length >= stored.size && statuses.every((status) => status === 'delivered');
          },
          { timeoutMs: 60_000, what: 'every webhook delivery delivered' },
        );
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.stop();
    }
  }, 180_000);
});
