import type { SMTPServerAddress, SMTPServerSession } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/modules/sending/delivery-worker.js';
import { expectOk } from '../support/api.js';
import { inbox } from '../support/fixtures.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';
import { sleep, waitFor } from '../support/wait-for.js';
import {
  rawOf,
  type SenderWorld,
  senderWorld,
  settled,
  startMxDns,
  startRecordingSmtp,
} from './sending-helpers.js';

/**
 * One SMTP transaction per recipient domain: the recipients of a message that share a domain (and
 * so its MX, found through dnsmasq on loopback) go in one connection and one transaction with a
 * RCPT each, at most 50; each recipient's answer is recorded on its own row.
 */

type Reply = { code: number; message: string } | null;

function smtpError(reply: { code: number; message: string }): Error {
  const error = new Error(reply.message) as Error & { responseCode: number };
  error.responseCode = reply.code;
  return error;
}

/** An MX that records every connection, MAIL and RCPT, and answers RCPT and DATA as told. */
async function startScriptedMx(host: string, port = 0) {
  let connections = 0;
  const rcpts: Array<{ transaction: string; address: string; reply: Reply }> = [];
  const seen = new Map<string, number>();
  const script = {
    rcpt: (_address: string, _times: number): Reply => null,
    data: (_session: SMTPServerSession): Reply => null,
  };
  const server = await startRecordingSmtp(
    (_attempt, session) => script.data(session),
    {
      onConnect(_session, done) {
        connections++;
        done();
      },
      onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, done: (error?: Error) => void) {
        const times = (seen.get(address.address) ?? 0) + 1;
        seen.set(address.address, times);
        const reply = script.rcpt(address.address, times);
        rcpts.push({ transaction: `${session.id}/${session.transaction}`, address: address.address, reply });
        done(reply ? smtpError(reply) : undefined);
      },
    },
    { host, port },
  );
  return {
    ...server,
    script,
    connections: () => connections,
    /** RCPT addresses by transaction, in order */
    transactions: () => {
      const byTransaction = new Map<string, string[]>();
      for (const rcpt of rcpts)
        byTransaction.set(rcpt.transaction, [...(byTransaction.get(rcpt.transaction) ?? []), rcpt.address]);
      return [...byTransaction.values()];
    },
    reset() {
      connections = 0;
      rcpts.length = 0;
      seen.clear();
      server.received.length = 0;
      script.rcpt = () => null;
      script.data = () => null;
    },
  };
}

describe('one SMTP transaction per recipient domain', () => {
  let dns: Awaited<ReturnType<typeof startMxDns>>;
  let groupMx: Awaited<ReturnType<typeof startScriptedMx>>;
  let otherMx: Awaited<ReturnType<typeof startScriptedMx>>;
  let sender: TestServer;
  let world: SenderWorld;

  beforeAll(async () => {
    groupMx = await startScriptedMx('127.0.0.1');
    // The MX port is global (OUTBOUND_PORT): the second domain's MX listens on another address.
    otherMx = await startScriptedMx('127.0.0.2', groupMx.port);
    dns = await startMxDns([{ domain: 'group.test' }, { domain: 'other.test', ip: '127.0.0.2' }]);
    sender = await startTestServer({
      env: {
        DNS_SERVERS: dns.address,
        OUTBOUND_PORT: String(groupMx.port),
        QUEUE_POLL_MS: '100',
        QUEUE_RETRY_DELAYS_MS: '300',
      },
    });
    world = await senderWorld(sender, 'group', 'groupsender.test');
  });
  afterAll(() => stopAll(sender, groupMx, otherMx, dns));

  async function send(to: string[], subject: string): Promise<number> {
    const { body } = await sender.api('POST', 'user/sendEmail', {
      token: world.mailboxToken,
      body: { from: world.mailboxAddress, to, subject, text: '分组投递' },
    });
    expectOk(body);
    return body.data.id;
  }

  function byRcpt<D extends { rcpt: string }>(item: { deliveries: D[] }): Record<string, D> {
    return Object.fromEntries(item.deliveries.map((delivery) => [delivery.rcpt, delivery]));
  }

  it('three recipients at one domain arrive in one transaction with three RCPT', async () => {
    groupMx.reset();
    otherMx.reset();
    const three = ['a@group.test', 'b@group.test', 'c@group.test'];
    const id = await send([...three, 'd@other.test'], '三个收件人');
    const item = await settled(sender, world.mailboxToken, id);
    expect(item.status).toBe('delivered');
    for (const delivery of item.deliveries) {
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
      expect(delivery.remoteResponse).toBe('250 OK: queued as test');
    }
    expect(groupMx.connections()).toBe(1);
    expect(groupMx.transactions()).toEqual([three]);
    expect(groupMx.received).toHaveLength(1);
    expect(groupMx.received[0]?.rcptTo).toEqual(three);
    expect(groupMx.received[0]?.mailFrom).toBe(world.mailboxAddress);
    // The other domain has its own MX and its own transaction.
    expect(otherMx.transactions()).toEqual([['d@other.test']]);
    expect(otherMx.received[0]?.rcptTo).toEqual(['d@other.test']);
  });

  it('records each answer on its own row: accepted, refused with 550, and 450 retried alone', async () => {
    groupMx.reset();
    groupMx.script.rcpt = (address, times) => {
      if (address === 'refused@group.test')
        return { code: 550, message: '5.1.1 <refused@group.test>: User unknown' };
      if (address === 'later@group.test' && times === 1)
        return { code: 450, message: '4.2.1 Mailbox busy, try later' };
      return null;
    };
    const id = await send(['ok@group.test', 'refused@group.test', 'later@group.test'], '有收有拒');
    const item = await settled(sender, world.mailboxToken, id);
    const rows = byRcpt(item);
    expect(rows['ok@group.test']).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    expect(rows['refused@group.test']).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: '550 5.1.1 <refused@group.test>: User unknown',
    });
    expect(rows['later@group.test']).toMatchObject({ status: 'delivered', attempts: 2, lastError: null });
    // The first transaction asked for all three; the retry only for the deferred one.
    expect(groupMx.transactions()).toEqual([
      ['ok@group.test', 'refused@group.test', 'later@group.test'],
      ['later@group.test'],
    ]);
    expect(groupMx.received.map((message) => message.rcptTo)).toEqual([
      ['ok@group.test'],
      ['later@group.test'],
    ]);

    // The sender hears about the refused one only.
    const bounce = await waitFor(
      async () => {
        const { list } = await inbox(sender, world.mailboxToken);
        return list.find((entry) => entry.subject === '退信：邮件未能送达（有收有拒）');
      },
      { timeoutMs: 10_000, what: 'the bounce' },
    );
    const text = (await rawOf(sender, world.mailboxToken, `raw/${bounce.id}`)).toString('utf8');
    expect(text).toContain(
      'Final-Recipient: rfc822; refused@group.test\r\nAction: failed\r\nStatus: 5.1.1\r\n',
    );
    expect(text).toContain('Remote-MTA: dns; mx.group.test\r\n');
    expect(text).not.toContain('Final-Recipient: rfc822; ok@group.test');
    expect(text).not.toContain('Final-Recipient: rfc822; later@group.test');
  });

  it('a refusal of the message itself fails each recipient of the transaction with that answer', async () => {
    groupMx.reset();
    groupMx.script.data = () => ({ code: 554, message: '5.7.1 Message rejected as spam' });
    const id = await send(['x@group.test', 'y@group.test'], '整封被拒');
    const item = await settled(sender, world.mailboxToken, id);
    expect(item.deliveries).toEqual([
      expect.objectContaining({
        rcpt: 'x@group.test',
        status: 'failed',
        lastError: '554 5.7.1 Message rejected as spam',
      }),
      expect.objectContaining({
        rcpt: 'y@group.test',
        status: 'failed',
        lastError: '554 5.7.1 Message rejected as spam',
      }),
    ]);
    expect(groupMx.transactions()).toEqual([['x@group.test', 'y@group.test']]);
  });

  it('a 4xx to one RCPT and a 550 to the message: the deferred recipient keeps its own answer', async () => {
    groupMx.reset();
    groupMx.script.rcpt = (address, times) =>
      address === 'wait@group.test' && times === 1 ? { code: 451, message: '4.3.0 Try again' } : null;
    let refusals = 0;
    groupMx.script.data = () => (refusals++ === 0 ? { code: 550, message: '5.7.1 Content refused' } : null);
    const id = await send(['gone@group.test', 'wait@group.test'], '先拒后收');
    const item = await settled(sender, world.mailboxToken, id);
    const rows = byRcpt(item);
    expect(rows['gone@group.test']).toMatchObject({
      status: 'failed',
      lastError: '550 5.7.1 Content refused',
    });
    expect(rows['wait@group.test']).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(groupMx.transactions()).toEqual([['gone@group.test', 'wait@group.test'], ['wait@group.test']]);
  });

  it('more than 50 recipients at one domain go 50 to a transaction', async () => {
    groupMx.reset();
    const many = Array.from({ length: 60 }, (_, index) => `r${index}@group.test`);
    const id = await send(many, '六十个收件人');
    const item = await settled(sender, world.mailboxToken, id);
    expect(item.status).toBe('delivered');
    const sizes = groupMx.received.map((message) => message.rcptTo.length).sort((a, b) => a - b);
    expect(sizes).toEqual([10, 50]);
    expect(new Set(groupMx.received.flatMap((message) => message.rcptTo)).size).toBe(60);
  });

  it('two processes polling the same message deliver each recipient exactly once', async () => {
    groupMx.reset();
    // The server's own worker stands aside; two workers on the same database are the processes.
    await sender.app.services.deliveryWorker.stop();
    const problems: string[] = [];
    const workers: DeliveryWorker[] = ['a', 'b'].map((name) =>
      createDeliveryWorker({
        db: sender.app.database.db,
        config: sender.config,
        settings: sender.app.services.settings,
        inbound: sender.app.services.inbound,
        content: sender.app.services.sending.content,
        log: {
          info: () => {},
          warn: (message) => problems.push(`${name}: ${message}`),
          error: (message) => problems.push(`${name}: ${message}`),
        },
      }),
    );
    try {
      const five = ['p1@group.test', 'p2@group.test', 'p3@group.test', 'p4@group.test', 'p5@group.test'];
      const id = await send(five, '两个进程');
      for (const worker of workers) worker.start();
      const item = await settled(sender, world.mailboxToken, id);
      expect(item.status).toBe('delivered');
      // A window for a second delivery by the other process, which must not come.
      await sleep(500);
      const delivered = groupMx.received.flatMap((message) => message.rcptTo).sort();
      expect(delivered).toEqual(five);
      expect(item.deliveries.map((delivery) => delivery.attempts)).toEqual([1, 1, 1, 1, 1]);
      expect(problems).toEqual([]);
    } finally {
      for (const worker of workers) await worker.stop();
    }
  });
});
