import { createServer, type Server, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AttemptOutcome, classify, type SmtpFailure, transact } from './smtp-client.js';

describe('classify (RFC 5321 section 4.2.1)', () => {
  const failure: fc.Arbitrary<SmtpFailure> = fc.record(
    {
      code: fc.constantFrom('EAUTH', 'ECONNECTION', 'ETIMEDOUT', 'EPROTOCOL', 'EENVELOPE', 'EMESSAGE'),
      responseCode: fc.integer({ min: 0, max: 999 }),
      response: fc.string({ unit: 'binary', maxLength: 2000 }),
      command: fc.constantFrom('RCPT TO', 'DATA', 'MAIL FROM', 'CONN'),
      message: fc.string({ unit: 'binary', maxLength: 2000 }),
    },
    { requiredKeys: ['message'] },
  );

  it('5yz gives up, 4yz retries, anything else retries; the stored text is one line', () => {
    fc.assert(
      fc.property(failure, (error) => {
        const outcome = classify(error, 'mx.example', 'mx.example');
        const code = error.responseCode;
        if (error.code === 'EAUTH') expect(outcome.kind).toBe('temporary');
        else if (code !== undefined && code >= 500 && code < 600) expect(outcome.kind).toBe('permanent');
        else expect(outcome.kind).toBe('temporary');
        const text = outcome.kind === 'delivered' ? outcome.response : outcome.error;
        expect(text).not.toMatch(/\n/);
        if (outcome.reply !== undefined) {
          expect(outcome.reply.length).toBeLessThanOrEqual(1000);
          expect(outcome.remoteMta).toBe('mx.example');
        }
      }),
      { numRuns: 1000 },
    );
  });
});

/**
 * A scripted SMTP server on loopback: each connection gets the script the test set, or, when
 * `garbage` is set, those bytes and a closed connection.
 */
interface Script {
  rcpt: string[];
  data: string;
  garbage?: Buffer;
}
let script: Script;
let server: Server;
let port = 0;

function serve(socket: Socket): void {
  socket.on('error', () => {});
  if (script.garbage) {
    // read (and drop) what the client says, so its closing is seen and the socket goes
    socket.resume();
    socket.end(script.garbage);
    return;
  }
  const { rcpt, data } = script;
  let recipient = 0;
  let inData = false;
  let buffered = '';
  socket.write('220 fake.test ESMTP\r\n');
  socket.on('data', (chunk) => {
    buffered += chunk.toString('latin1');
    for (;;) {
      if (inData) {
        const end = buffered.indexOf('\r\n.\r\n');
        if (end < 0) return;
        buffered = buffered.slice(end + 5);
        inData = false;
        socket.write(`${data}\r\n`);
        continue;
      }
      const end = buffered.indexOf('\r\n');
      if (end < 0) return;
      const line = buffered.slice(0, end).toUpperCase();
      buffered = buffered.slice(end + 2);
      if (line.startsWith('EHLO')) socket.write('250-fake.test\r\n250 SIZE 10000000\r\n');
      else if (line.startsWith('MAIL')) socket.write('250 2.1.0 ok\r\n');
      else if (line.startsWith('RCPT')) socket.write(`${rcpt[recipient++] ?? '503 5.5.1 no'}\r\n`);
      else if (line.startsWith('DATA')) {
        inData = true;
        socket.write('354 go ahead\r\n');
      } else if (line.startsWith('QUIT')) socket.end('221 2.0.0 bye\r\n');
      else socket.write('250 ok\r\n');
    }
  });
}

beforeAll(async () => {
  server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(recipients: string[]): Promise<AttemptOutcome[]> {
  return transact(
    { host: '127.0.0.1', port, secure: false, servername: 'fake.test', verify: false, ignoreTLS: true },
    'client.test',
    {
      from: 'a@client.test',
      recipients,
      size: 20,
      open: () => Readable.from([Buffer.from('Subject: t\r\n\r\nbody\r\n')]),
    },
    new AbortController().signal,
  ).then((result) => result.outcomes);
}

const kindOf = (reply: string) =>
  reply.startsWith('2') ? 'ok' : reply.startsWith('4') ? 'temporary' : 'permanent';

describe('transact (RFC 5321 section 3.3) against a scripted server', () => {
  it('each recipient gets its own RCPT answer, or the answer to the message', async () => {
    const rcptReply = fc.constantFrom(
      '250 2.1.5 ok',
      '450 4.2.0 busy',
      '550 5.1.1 unknown',
      '452 4.5.3 too many',
    );
    const dataReply = fc.constantFrom('250 2.0.0 queued', '451 4.3.0 try later', '554 5.6.0 refused');
    let completed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(rcptReply, { minLength: 1, maxLength: 4 }), dataReply, async (rcpt, data) => {
        script = { rcpt, data };
        const recipients = rcpt.map((_, index) => `r${index}@fake.test`);
        const outcomes = await send(recipients);
        expect(outcomes).toHaveLength(recipients.length);
        outcomes.forEach((outcome, index) => {
          const own = rcpt[index] ?? '';
          const expected =
            kindOf(own) === 'ok' ? (kindOf(data) === 'ok' ? 'delivered' : kindOf(data)) : kindOf(own);
          expect(outcome.kind).toBe(expected);
          const said = kindOf(own) === 'ok' ? data : own;
          expect(outcome.reply).toBe(said);
        });
        completed += 1;
      }),
      { numRuns: 40 },
    );
    expect(completed).toBe(40);
  });

  it('answers for every recipient, and returns, whatever bytes the server sends', async () => {
    const valid = fc.constantFrom(
      '220 fake.test\r\n',
      '554 5.7.1 go away\r\n',
      '220-a\r\n220 b\r\n',
      '421 4.7.0 busy\r\n',
    );
    let completed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
          valid.map((text) => Buffer.from(text)),
          fc
            .tuple(valid, fc.uint8Array({ maxLength: 40 }))
            .map(([text, tail]) => Buffer.concat([Buffer.from(text), tail])),
        ),
        fc.integer({ min: 1, max: 3 }),
        async (garbage, count) => {
          script = { rcpt: [], data: '', garbage };
          const outcomes = await send(Array.from({ length: count }, (_, index) => `r${index}@fake.test`));
          expect(outcomes).toHaveLength(count);
          for (const outcome of outcomes) expect(outcome.kind).not.toBe('delivered');
          completed += 1;
        },
      ),
      { numRuns: 60 },
    );
    expect(completed).toBe(60);
  });
});
