import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/modules/sending/delivery-worker.js';
import { expectOk } from '../support/api.js';
import { inbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { sleep, waitFor } from '../support/wait-for.js';
import { rawOf, type SenderWorld, senderWorld, settled, startRecordingSmtp } from './sending-helpers.js';

/**
 * Bounces (RFC 3464 delivery status notifications): when a recipient fails for good, the sender's
 * mailbox gets one Chinese report through the normal inbound path, with the machine-readable
 * status and the original's headers; never for a sender without a mailbox, never for a bounce,
 * never twice.
 */

const MAILER_DAEMON = 'MAILER-DAEMON@mx.youju.test';
const ENV = { QUEUE_POLL_MS: '100', QUEUE_RETRY_DELAYS_MS: '300,600', QUEUE_MAX_AGE_MS: '2500' };

/** The body parts of a multipart message in order: their header block (lower-cased names) and body. */
function mimeParts(raw: Buffer, boundary: string): Array<{ headers: string; body: string }> {
  const text = raw.toString('utf8');
  const sections = text.split(`--${boundary}`).slice(1, -1);
  return sections.map((section) => {
    const content = section.replace(/^\r\n/, '');
    const end = content.indexOf('\r\n\r\n');
    return { headers: content.slice(0, end), body: content.slice(end + 4).replace(/\r\n$/, '') };
  });
}

async function inboxOf(server: TestServer, token: string, address?: string) {
  return (await inbox(server, token, address ? `&address=${encodeURIComponent(address)}` : '')).list;
}

async function bouncesIn(server: TestServer, token: string, address?: string) {
  return (await inboxOf(server, token, address)).filter(
    (item) => item.from.address === MAILER_DAEMON.toLowerCase(),
  );
}

/** Waits until the inbox behind `token` holds more bounces than `before`, and returns the newest. */
function newBounce(server: TestServer, token: string, before: unknown[]) {
  return waitFor(
    async () => {
      const list = await bouncesIn(server, token);
      return list.length > before.length ? list[0] : undefined;
    },
    { timeoutMs: 10_000, what: 'the bounce' },
  );
}

async function queueRows(server: TestServer, sentId: number) {
  return server.app.database.db
    .selectFrom('outbound_queue')
    .selectAll()
    .where('sent_id', '=', sentId)
    .orderBy('id')
    .execute();
}

describe('bounces for failed deliveries', () => {
  let server: TestServer;
  let world: SenderWorld;
  const relays: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    server = await startTestServer({ env: ENV });
    world = await senderWorld(server, 'bounce');
  });
  afterAll(async () => {
    await server.close();
    for (const relay of relays) await relay.close();
  });

  async function relayAnswering(
    answer: Parameters<typeof startRecordingSmtp>[0],
    options: Parameters<typeof startRecordingSmtp>[1] = {},
  ) {
    const relay = await startRecordingSmtp(answer, options);
    relays.push(relay);
    await server.app.services.settings.update({ relayUrl: `smtp://127.0.0.1:${relay.port}` });
    return relay;
  }

  async function send(token: string, from: string, to: string[], subject: string): Promise<number> {
    const { body } = await server.api('POST', 'user/sendEmail', {
      token,
      body: { from, to, subject, text: '退信测试' },
    });
    expectOk(body);
    return body.data.id as number;
  }

  it('550 at the relay: the sender gets one Chinese report naming each refused recipient', async () => {
    const relay = await relayAnswering(() => null, {
      onRcptTo(address, _session, done) {
        const error = new Error(`5.1.1 <${address.address}>: User unknown`) as Error & {
          responseCode: number;
        };
        error.responseCode = 550;
        done(error);
      },
    });
    const before = await bouncesIn(server, world.mailboxToken);
    const id = await send(
      world.mailboxToken,
      world.mailboxAddress,
      ['nobody@far-away.example', 'ghost@far-away.example'],
      '季度报告',
    );
    const item = await settled(server, world.mailboxToken, id);
    expect(item.status).toBe('failed');
    expect(item.deliveries.map((d) => d.lastError).sort()).toEqual([
      '550 5.1.1 <ghost@far-away.example>: User unknown',
      '550 5.1.1 <nobody@far-away.example>: User unknown',
    ]);

    const bounce = await newBounce(server, world.mailboxToken, before);
    expect(bounce).toMatchObject({ address: world.mailboxAddress, from: { name: '邮件系统退信' } });
    expect(bounce.subject).toBe('退信：邮件未能送达（季度报告）');

    const raw = await rawOf(server, world.mailboxToken, `raw/${bounce.id}`);
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ address: MAILER_DAEMON, name: '邮件系统退信' }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value : []).toEqual([
      { address: world.mailboxAddress, name: '' },
    ]);
    expect(parsed.headers.get('auto-submitted')).toBe('auto-replied');
    const sentRaw = await rawOf(server, world.mailboxToken, `sentRaw/${id}`);
    const original = await simpleParser(sentRaw);
    expect(parsed.inReplyTo).toBe(original.messageId);
    const contentType = parsed.headers.get('content-type') as {
      value: string;
      params: Record<string, string>;
    };
    expect(contentType.value).toBe('multipart/report');
    expect(contentType.params['report-type']).toBe('delivery-status');

    const parts = mimeParts(raw, contentType.params.boundary as string);
    expect(parts.map((part) => /^content-type: ([^;\r\n]+)/im.exec(part.headers)?.[1])).toEqual([
      'text/plain',
      'message/delivery-status',
      'text/rfc822-headers',
    ]);
    // 1. For people, in Chinese: who, what the server said, what to check.
    const human = Buffer.from(parts[0]?.body ?? '', 'base64').toString('utf8');
    expect(human).toContain('未能送达以下 2 位收件人');
    expect(human).toContain('邮件主题：季度报告');
    expect(human).toContain('收件人：nobody@far-away.example');
    expect(human).toContain('对方答复：550 5.1.1 <nobody@far-away.example>: User unknown');
    expect(human).toContain('收件人：ghost@far-away.example');
    expect(human).toContain('请检查：收件人地址是否拼写正确');
    // 2. For programs (RFC 3464 section 2): one per-message group, one group per recipient.
    const groups = (parts[1]?.body ?? '').trim().split(/\r\n\r\n/);
    expect(groups).toHaveLength(3);
    expect(groups[0]).toMatch(
      /^Reporting-MTA: dns; mx\.youju\.test\r\nArrival-Date: \w{3}, \d\d \w{3} \d{4} /,
    );
    for (const rcpt of ['nobody@far-away.example', 'ghost@far-away.example']) {
      const group = groups.find((text) => text.includes(`Final-Recipient: rfc822; ${rcpt}\r\n`));
      expect(group).toContain('Action: failed\r\nStatus: 5.1.1\r\n');
      expect(group).toContain('Remote-MTA: dns; 127.0.0.1\r\n');
      expect(group).toContain(`Diagnostic-Code: smtp; 550 5.1.1 <${rcpt}>: User unknown\r\n`);
      expect(group).toMatch(/Last-Attempt-Date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d \+0000$/);
    }
    // 3. The original's header block as it was sent.
    const headerBlock = sentRaw.subarray(0, sentRaw.indexOf('\r\n\r\n')).toString('utf8');
    expect(parts[2]?.body).toBe(`${headerBlock}\r\n`);
    expect(parts[2]?.body).toContain('DKIM-Signature:');

    // Stored through the inbound path with an empty envelope sender (RFC 5321 section 4.5.5).
    const stored = await server.app.database.db
      .selectFrom('messages')
      .select(['envelope_from', 'from_address'])
      .where('id', '=', bounce.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ envelope_from: '', from_address: MAILER_DAEMON.toLowerCase() });
    const shown = await server.api('GET', `user/getEmail?id=${bounce.id}`, { token: world.mailboxToken });
    expect(shown.body.data?.text).toContain('未能送达以下 2 位收件人');

    const rows = await queueRows(server, id);
    expect(rows.map((row) => [row.bounce_state, row.failure_status, row.remote_mta])).toEqual([
      ['sent', '5.1.1', '127.0.0.1'],
      ['sent', '5.1.1', '127.0.0.1'],
    ]);
    // A window for a second report that must not come.
    await sleep(800);
    expect(await bouncesIn(server, world.mailboxToken)).toHaveLength(before.length + 1);
    expect(relay.attempts()).toBe(0);
  });

  it('retries used up: the report says the delivery time expired and quotes the last answer', async () => {
    await relayAnswering(() => ({ code: 421, message: '4.7.0 Try again later' }));
    const before = await bouncesIn(server, world.mailboxToken);
    const id = await send(world.mailboxToken, world.mailboxAddress, ['slow@far-away.example'], '一直 4xx');
    const item = await settled(server, world.mailboxToken, id, 15_000);
    expect(item.status).toBe('failed');
    const bounce = await newBounce(server, world.mailboxToken, before);
    const raw = await rawOf(server, world.mailboxToken, `raw/${bounce.id}`);
    const text = raw.toString('utf8');
    expect(text).toContain('Final-Recipient: rfc822; slow@far-away.example\r\n');
    expect(text).toContain('Action: failed\r\nStatus: 5.4.7\r\n');
    expect(text).toContain('Diagnostic-Code: smtp; 421 4.7.0 Try again later\r\n');
    const parsed = await simpleParser(raw);
    expect(parsed.text).toMatch(
      /失败原因：多次重试仍未送达，已放弃（共 \d+ 次）：421 4\.7\.0 Try again later/,
    );
    expect(parsed.text).toContain('多次重试都未能送达');
  });

  it('a local recipient that does not exist: the report quotes our own SMTP answer', async () => {
    const before = await bouncesIn(server, world.mailboxToken);
    const missing = `nobody-here@${world.domain}`;
    const id = await send(world.mailboxToken, world.mailboxAddress, [missing], '本站收件人');
    const item = await settled(server, world.mailboxToken, id);
    expect(item.deliveries[0]?.lastError).toMatch(/^550 5\.1\.1 本站没有收件人/);
    const bounce = await newBounce(server, world.mailboxToken, before);
    const text = (await rawOf(server, world.mailboxToken, `raw/${bounce.id}`)).toString('utf8');
    expect(text).toContain(`Final-Recipient: rfc822; ${missing}\r\nAction: failed\r\nStatus: 5.1.1\r\n`);
    expect(text).toContain(
      `Diagnostic-Code: smtp; 550 5.1.1 <${missing}>: Recipient address rejected: no such mailbox\r\n`,
    );
    expect(text).not.toContain('Remote-MTA:');
  });

  it('a sender name without a mailbox gets no report, and the failure stays recorded', async () => {
    const relay = await relayAnswering(() => ({ code: 550, message: '5.7.1 Rejected by policy' }));
    const countMessages = async () =>
      Number(
        (
          await server.app.database.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    const messagesBefore = await countMessages();
    const id = await send(
      world.userToken,
      `noreply@${world.domain}`,
      ['someone@far-away.example'],
      '无人接收',
    );
    const item = await settled(server, world.userToken, id);
    expect(item.deliveries[0]).toMatchObject({ status: 'failed', lastError: '550 5.7.1 Rejected by policy' });
    const [row] = await waitFor(
      async () => {
        const rows = await queueRows(server, id);
        return rows[0]?.bounce_state === 'skipped' ? rows : undefined;
      },
      { timeoutMs: 10_000, what: 'the bounce to be skipped' },
    );
    expect(row).toMatchObject({ status: 'failed', failure_status: '5.7.1', bounce_owner: null });
    expect(await countMessages()).toBe(messagesBefore);
    expect(relay.attempts()).toBe(1);
  });

  it('never bounces a bounce: a failure of mail from MAILER-DAEMON reports nothing', async () => {
    await relayAnswering(() => ({ code: 550, message: '5.1.1 User unknown' }));
    const created = await server.api('POST', 'user/createEmail', {
      token: world.userToken,
      body: { domainId: world.domainId, localPart: 'mailer-daemon' },
    });
    expectOk(created.body);
    const address = created.body.data.address as string;
    const id = await send(world.userToken, address, ['x@far-away.example'], '自动回复');
    await settled(server, world.userToken, id);
    await waitFor(
      async () => ((await queueRows(server, id))[0]?.bounce_state === 'skipped' ? true : undefined),
      { timeoutMs: 10_000, what: 'the bounce to be skipped' },
    );
    expect(await inboxOf(server, world.userToken, address)).toEqual([]);
  });
});

/**
 * Two delivery workers on one database stand for two processes (or one restarted): the row of a
 * failed recipient is delivered once and bounced once, and a bounce claimed by a process that died
 * is sent once its lease runs out.
 */
describe('bounces across processes', () => {
  let server: TestServer;
  let world: SenderWorld;
  let relay: Awaited<ReturnType<typeof startRecordingSmtp>>;
  const workers: DeliveryWorker[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { ...ENV, QUEUE_LEASE_MS: '1500' } });
    world = await senderWorld(server, 'twice');
    relay = await startRecordingSmtp(() => ({ code: 550, message: '5.1.1 User unknown' }));
    await server.app.services.settings.update({ relayUrl: `smtp://127.0.0.1:${relay.port}` });
    // The server's own worker stands aside; the test's workers are the "processes".
    await server.app.services.deliveryWorker.stop();
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await server.close();
    await relay.close();
  });

  function newProcess(name: string): DeliveryWorker {
    const { settings, inbound, sending } = server.app.services;
    const worker = createDeliveryWorker({
      db: server.app.database.db,
      config: server.config,
      settings,
      inbound,
      content: sending.content,
      log: {
        info: () => {},
        warn: (message) => problems.push(`${name} warn: ${message}`),
        error: (message) => problems.push(`${name} error: ${message}`),
      },
    });
    workers.push(worker);
    return worker;
  }

  async function send(subject: string): Promise<number> {
    const { body } = await server.api('POST', 'user/sendEmail', {
      token: world.mailboxToken,
      body: { from: world.mailboxAddress, to: ['gone@far-away.example'], subject, text: '.' },
    });
    expectOk(body);
    return body.data.id as number;
  }

  it('two processes racing: one delivery attempt, one bounce; a later process adds none', async () => {
    const id = await send('两个进程');
    const first = newProcess('a');
    const second = newProcess('b');
    first.start();
    second.start();
    await waitFor(
      async () => ((await queueRows(server, id))[0]?.bounce_state === 'sent' ? true : undefined),
      { timeoutMs: 10_000, what: 'the bounce' },
    );
    const third = newProcess('c');
    third.start();
    // A window in which the later process must find nothing to do.
    await sleep(1000);
    expect(relay.attempts()).toBe(1);
    const bounces = await bouncesIn(server, world.mailboxToken);
    expect(bounces).toHaveLength(1);
    expect(bounces[0]?.subject).toBe('退信：邮件未能送达（两个进程）');
    expect(problems).toEqual([]);
    for (const worker of workers.splice(0)) await worker.stop();
  });

  it('a bounce claimed by a process that died is sent once, after its lease', async () => {
    const id = await send('进程崩溃');
    // What a process leaves when it dies after recording the failure and claiming the bounce.
    const now = Date.now();
    await server.app.database.db
      .updateTable('outbound_queue')
      .set({
        status: 'failed',
        attempts: 1,
        last_error: '550 5.1.1 User unknown',
        last_reply: '550 5.1.1 User unknown',
        failure_status: '5.1.1',
        bounce_state: 'pending',
        bounce_owner: 'a-process-that-died',
        bounce_due_at: now + 3000,
        bounce_attempts: 1,
      })
      .where('sent_id', '=', id)
      .execute();
    const before = (await bouncesIn(server, world.mailboxToken)).length;
    newProcess('d').start();
    newProcess('e').start();
    // Until the dead process's claim runs out (bounce_due_at, 3 s), nobody may send its bounce.
    await sleep(1000);
    expect(await bouncesIn(server, world.mailboxToken)).toHaveLength(before);
    await waitFor(
      async () => ((await queueRows(server, id))[0]?.bounce_state === 'sent' ? true : undefined),
      { timeoutMs: 10_000, what: 'the bounce after the lease' },
    );
    // A window for a second copy that must not come.
    await sleep(800);
    const bounces = await bouncesIn(server, world.mailboxToken);
    expect(bounces).toHaveLength(before + 1);
    expect(bounces[0]?.subject).toBe('退信：邮件未能送达（进程崩溃）');
    expect(problems).toEqual([]);
  });
});
