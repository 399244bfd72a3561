import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { sleep, waitFor } from '../support/wait-for.js';
import { type SenderWorld, senderWorld, sentItem, settled, startRecordingSmtp } from './sending-helpers.js';

/**
 * The outbound queue against relays that answer as real servers do (the relayUrl setting, smtp://
 * with and without credentials): 4xx is retried with backoff until accepted, 5xx fails at once
 * with the answer kept, a delivery is never repeated once accepted, and retries stop after the
 * maximum age.
 */
describe('outbound queue through a relay', () => {
  let server: TestServer;
  let world: SenderWorld;
  const relays: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    server = await startTestServer({
      env: { QUEUE_POLL_MS: '100', QUEUE_RETRY_DELAYS_MS: '300,600', QUEUE_MAX_AGE_MS: '2500' },
    });
    world = await senderWorld(server, 'relay');
  });
  afterAll(async () => {
    await server.close();
    for (const relay of relays) await relay.close();
  });

  async function viaRelay(relay: { port: number }, credentials = '') {
    await server.app.services.settings.update({ relayUrl: `smtp://${credentials}127.0.0.1:${relay.port}` });
  }

  async function send(to: string, subject: string) {
    const { body } = await server.api('POST', 'user/sendEmail', {
      token: world.mailboxToken,
      body: { from: world.mailboxAddress, to: [to], subject, text: '队列测试' },
    });
    expectOk(body);
    return body.data.id as number;
  }

  it('retries after 451 and delivers exactly once after 250', async () => {
    const relay = await startRecordingSmtp((attempt) =>
      attempt === 1 ? { code: 451, message: '4.3.0 Temporary local problem, try again' } : null,
    );
    relays.push(relay);
    await viaRelay(relay);
    const id = await send('someone@far-away.example', '451 然后 250');

    // After the first answer the item shows the retry and its time.
    const retrying = await settledOrRetrying(id);
    expect(retrying?.deliveries[0]).toMatchObject({ status: expect.stringMatching(/retrying|delivered/) });

    const item = await settled(server, world.mailboxToken, id);
    expect(item.status).toBe('delivered');
    expect(item.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2, lastError: null });
    expect(item.deliveries[0]?.remoteResponse).toContain('250');
    // A window for a repeated delivery that must not come.
    await sleep(1000);
    expect(relay.attempts()).toBe(2);
    expect(relay.received).toHaveLength(1);
    expect(relay.received[0]?.rcptTo).toEqual(['someone@far-away.example']);
    expect(relay.received[0]?.mailFrom).toBe(world.mailboxAddress);
  });

  /** The item once its delivery is retrying (checking the retry's answer and time) or delivered. */
  async function settledOrRetrying(id: number) {
    const item = await waitFor(
      async () => {
        const found = await sentItem(server, world.mailboxToken, id);
        return ['retrying', 'delivered'].includes(found?.deliveries[0]?.status ?? '') ? found : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 20, what: `sent item ${id} to be retried` },
    );
    const delivery = item.deliveries[0];
    if (delivery?.status === 'retrying') {
      expect(delivery.lastError).toBe('451 4.3.0 Temporary local problem, try again');
      expect(Date.parse(delivery.nextAttemptAt ?? '')).toBeGreaterThan(Date.now() - 1000);
    }
    return item;
  }

  it('fails at once on 550 and shows the remote answer', async () => {
    const relay = await startRecordingSmtp(() => ({
      code: 550,
      message: '5.1.1 <nobody@far-away.example>: User unknown',
    }));
    relays.push(relay);
    await viaRelay(relay);
    const id = await send('nobody@far-away.example', '550');
    const item = await settled(server, world.mailboxToken, id);
    expect(item.status).toBe('failed');
    expect(item.deliveries[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: '550 5.1.1 <nobody@far-away.example>: User unknown',
    });
    // A window for a retry that must not come.
    await sleep(800);
    expect(relay.attempts()).toBe(1);
  });

  it('logs in to a relay with the credentials of the relay URL', async () => {
    const logins: string[] = [];
    const relay = await startRecordingSmtp(() => null, {
      disabledCommands: [],
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, done) {
        logins.push(`${auth.username}:${auth.password}`);
        if (auth.username === 'relay user' && auth.password === 'p@ss:word')
          done(null, { user: auth.username });
        else done(new Error('535 5.7.8 Authentication credentials invalid'));
      },
    });
    relays.push(relay);
    await viaRelay(relay, `${encodeURIComponent('relay user')}:${encodeURIComponent('p@ss:word')}@`);
    const id = await send('auth@far-away.example', 'AUTH');
    const item = await settled(server, world.mailboxToken, id);
    expect(item.status).toBe('delivered');
    expect(logins).toEqual(['relay user:p@ss:word']);
  });

  it('gives up after the maximum age with the last answer', async () => {
    const relay = await startRecordingSmtp(() => ({ code: 421, message: '4.7.0 Try again later' }));
    relays.push(relay);
    await viaRelay(relay);
    const id = await send('slow@far-away.example', '一直 4xx');
    const item = await settled(server, world.mailboxToken, id, 15_000);
    expect(item.status).toBe('failed');
    expect(item.deliveries[0]?.lastError).toMatch(
      /^多次重试仍未送达，已放弃（共 \d+ 次）：421 4\.7\.0 Try again later$/,
    );
    expect(item.deliveries[0]?.attempts).toBeGreaterThanOrEqual(3);
  });
});
