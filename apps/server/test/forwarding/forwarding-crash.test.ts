import { describe, expect, it } from 'vitest';
import { startRecordingSmtp } from '../sending/sending-helpers.js';
import { expectOk } from '../support/api.js';
import { freePort } from '../support/ports.js';
import {
  adminWithAddress,
  type ServerProcess,
  startServerProcess,
  useServerStore,
} from '../support/server-process.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { waitFor } from '../support/wait-for.js';

/**
 * At least once across a crash: the forwarded copy is queued in the transaction that stores the
 * received message, so the real program killed with SIGKILL right after the SMTP 250 (before the
 * relay took the copy) forwards it once it is back.
 */
const ADMIN = { username: 'fwdcrash', password: 'forward-crash-password' };
const store = useServerStore();

function startServer(relayPort: number): Promise<ServerProcess> {
  return startServerProcess(store(), {
    MAIL_HOSTNAME: 'mx.fwdcrash.test',
    INIT_ADMIN_USER: ADMIN.username,
    INIT_ADMIN_PASSWORD: ADMIN.password,
    RELAY_URL: `smtp://127.0.0.1:${relayPort}`,
    QUEUE_POLL_MS: '200',
    QUEUE_LEASE_MS: '1500',
    QUEUE_RETRY_DELAYS_MS: '500',
  });
}

describe('forwarding across kill -9', () => {
  it('forwards a message acknowledged just before the kill once the program is back', async () => {
    // No relay listens until the kill: the copy cannot leave before it.
    const relayPort = await freePort();
    const first = await startServer(relayPort);
    let relay: Awaited<ReturnType<typeof startRecordingSmtp>> | null = null;
    try {
      const { token, address } = await adminWithAddress(first, ADMIN, 'fwdcrash.youju.test', 'crash');
      const set = await first.api('POST', 'user/setForward', {
        token,
        body: { address, forwardTo: 'crash-target@example.net' },
      });
      expectOk(set.body);

      const result = await sendMail(first.smtpPort, {
        to: [address],
        content: simpleMessage(address, 'acknowledged then killed', 'forward-crash-marker'),
      });
      expect(result.data?.code).toBe(250);
      await first.kill();

      relay = await startRecordingSmtp(() => null, {}, { port: relayPort });
      const second = await startServer(relayPort);
      try {
        const copy = await waitFor(
          () => relay?.received.find((message) => message.data.includes('forward-crash-marker')),
          { timeoutMs: 30_000, what: 'the forwarded copy after the restart' },
        );
        expect(copy.rcptTo).toEqual(['crash-target@example.net']);
        expect(copy.mailFrom).toMatch(
          /^SRS0=[A-Z2-7]{8}=[A-Z2-7]{2}=sender\.example=sender@fwdcrash\.youju\.test$/,
        );
      } finally {
        await second.stop();
      }
      expect(relay.received.filter((message) => message.data.includes('forward-crash-marker'))).toHaveLength(
        1,
      );
    } finally {
      await relay?.close();
    }
  }, 120_000);
});
