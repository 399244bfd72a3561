import { describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { freePort } from '../support/ports.js';
import { type ServerProcess, startServerProcess, useServerStore } from '../support/server-process.js';
import { sleep, waitFor } from '../support/wait-for.js';
import { startRecordingSmtp } from './sending-helpers.js';

/**
 * The real program (`node apps/server/dist/server.js`) is killed with SIGKILL while a delivery is
 * in the queue: once mid-transaction at the relay (the row is "sending" under a lease), once
 * between retries (the row is "retrying"). After a restart on the same data, each message reaches
 * the relay exactly once, and the bounce of a refused one is stored once.
 *
 * Each test starts the program up to four times, so each gets three minutes: a loaded machine takes
 * 15 s or more to start it (a bound on a hang, not a measure of speed).
 */
const ADMIN = { username: 'queueadmin', password: 'queue-admin-password' };

const store = useServerStore();

function startServer(relayPort: number): Promise<ServerProcess> {
  return startServerProcess(store(), {
    MAIL_HOSTNAME: 'mx.restart.test',
    INIT_ADMIN_USER: ADMIN.username,
    INIT_ADMIN_PASSWORD: ADMIN.password,
    RELAY_URL: `smtp://127.0.0.1:${relayPort}`,
    QUEUE_POLL_MS: '200',
    QUEUE_LEASE_MS: '3000',
    QUEUE_RETRY_DELAYS_MS: '1500',
  });
}

/** Logs in as the administrator on a (re)started process. */
async function adminToken(server: ServerProcess): Promise<string> {
  const login = await server.api('POST', 'login', { body: ADMIN });
  expectOk(login.body);
  return login.body.data.token;
}

async function sentStatus(server: ServerProcess, token: string, id: number) {
  const list = await server.api('GET', 'user/getSentEmail?pageSize=100', { token });
  expectOk(list.body);
  return list.body.data.list.find((item) => item.id === id);
}

describe('outbound queue across kill -9', () => {
  it('delivers a message exactly once after the server is killed mid-delivery and between retries', async () => {
    // 1. The relay takes the DATA of the first attempt and never answers: the row is "sending".
    let releaseStall: () => void = () => {};
    let stalled = false;
    const relay = await startRecordingSmtp((attempt) => {
      if (attempt > 1) return null;
      stalled = true;
      return new Promise((resolve) => {
        releaseStall = () => resolve({ code: 421, message: 'closing' });
      });
    });
    const first = await startServer(relay.port);
    const token = await adminToken(first);
    const domain = await first.api('POST', 'user/addDomain', { token, body: { name: 'restart.test' } });
    expectOk(domain.body);
    const sent = await first.api('POST', 'user/sendEmail', {
      token,
      body: {
        from: 'ops@restart.test',
        to: ['far@far-away.example'],
        subject: '重启前排队',
        text: '杀进程也不丢',
      },
    });
    expectOk(sent.body);
    expect(sent.body.data.status).toBe('queued');
    const sentId = sent.body.data.id;
    await waitFor(() => stalled, { timeoutMs: 15_000, what: 'the relay to receive DATA' });
    await first.kill();
    releaseStall();

    const second = await startServer(relay.port);
    const token2 = await adminToken(second);
    // The lease of the killed process runs out, then the new one takes the row.
    const delivered = await waitFor(
      async () => {
        const item = await sentStatus(second, token2, sentId);
        return item?.status === 'delivered' ? item : undefined;
      },
      { timeoutMs: 20_000, what: 'delivery after restart' },
    );
    expect(delivered.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(relay.received).toHaveLength(1);
    expect(relay.received[0]?.data.toString()).toContain('Subject: =?UTF-8?');

    // 2. A relay that is not there yet: the row waits as "retrying"; kill, start the relay, restart.
    const laterPort = await freePort();
    await second.kill();
    const third = await startServer(laterPort);
    const token3 = await adminToken(third);
    const queued = await third.api('POST', 'user/sendEmail', {
      token: token3,
      body: { from: 'ops@restart.test', to: ['later@far-away.example'], subject: '等待重试', text: '.' },
    });
    expectOk(queued.body);
    const queuedId = queued.body.data.id;
    const retrying = await waitFor(
      async () => {
        const item = await sentStatus(third, token3, queuedId);
        return item?.status === 'retrying' ? item : undefined;
      },
      { timeoutMs: 15_000, what: 'a failed first attempt' },
    );
    expect(retrying.deliveries[0]?.lastError).toMatch(/ECONNREFUSED|连接/);
    await third.kill();
    const laterRelay = await startRecordingSmtp(() => null, {}, { port: laterPort });
    const fourth = await startServer(laterPort);
    const token4 = await adminToken(fourth);
    const done = await waitFor(
      async () => {
        const item = await sentStatus(fourth, token4, queuedId);
        return item?.status === 'delivered' ? item : undefined;
      },
      { timeoutMs: 20_000, what: 'the retried delivery after restart' },
    );
    expect(done.deliveries[0]?.attempts).toBe(2);
    // A window for a second delivery that must not come (a poll is 200 ms, a retry 1.5 s).
    await sleep(1500);
    expect(laterRelay.received).toHaveLength(1);
    expect(relay.received).toHaveLength(1);
    await fourth.kill();
    await relay.close();
    await laterRelay.close();
  }, 180_000);

  it('stores the bounce of a refused message once, and a restart after it adds none', async () => {
    const relay = await startRecordingSmtp(() => ({ code: 550, message: '5.1.1 User unknown' }));
    const first = await startServer(relay.port);
    const token = await adminToken(first);
    const domain = await first.api('POST', 'user/addDomain', {
      token,
      body: { name: 'bounce-restart.test' },
    });
    expectOk(domain.body);
    const address = await first.api('POST', 'user/createEmail', {
      token,
      body: { domainId: domain.body.data.id, localPart: 'ops' },
    });
    expectOk(address.body);
    const sent = await first.api('POST', 'user/sendEmail', {
      token,
      body: {
        from: 'ops@bounce-restart.test',
        to: ['nobody@far-away.example'],
        subject: '会被退回',
        text: '.',
      },
    });
    expectOk(sent.body);
    const bounces = async (server: ServerProcess, session: string) => {
      const inbox = await server.api('GET', 'user/getInbox?address=ops@bounce-restart.test', {
        token: session,
      });
      expectOk(inbox.body);
      return inbox.body.data.list.filter((item) => item.from.address === 'mailer-daemon@mx.restart.test');
    };
    await waitFor(async () => (await bounces(first, token)).length > 0, {
      timeoutMs: 15_000,
      what: 'the bounce',
    });
    await first.kill();

    const second = await startServer(relay.port);
    const token2 = await adminToken(second);
    // Several polls (200 ms) and more than a lease (3 s) later, still one: the window is the test.
    await sleep(4000);
    const after = await bounces(second, token2);
    expect(after).toHaveLength(1);
    expect(after[0]?.subject).toBe('退信：邮件未能送达（会被退回）');
    expect(relay.attempts()).toBe(1);
    await second.kill();
    await relay.close();
  }, 180_000);
});
