import { describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import {
  adminWithAddress,
  type ServerProcess,
  startServerProcess,
  useServerStore,
} from '../support/server-process.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { waitFor } from '../support/wait-for.js';
import { startReceiver, verifySignature } from './webhook-helpers.js';

/**
 * At least once across a crash: the deliveries are queued in the transaction that stores the mail,
 * so the program killed with SIGKILL right after the SMTP 250 (its POST, if it began one, left
 * unanswered) delivers after a restart.
 */
const ADMIN = { username: 'hookcrash', password: 'hook-crash-password' };
const store = useServerStore();

function startServer(): Promise<ServerProcess> {
  return startServerProcess(store(), {
    MAIL_HOSTNAME: 'mx.hookcrash.test',
    INIT_ADMIN_USER: ADMIN.username,
    INIT_ADMIN_PASSWORD: ADMIN.password,
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_RETRY_BASE_MS: '200',
    // a killed process's claim runs out quickly, so the restarted one may take the row
    WEBHOOK_LEASE_MS: '1500',
  });
}

describe('webhooks across kill -9', () => {
  it('delivers mail acknowledged just before the kill once the program is back', async () => {
    // Until the kill the receiver never answers: nothing can be recorded as delivered.
    const receiver = await startReceiver({ fallback: 'hold' });
    try {
      const first = await startServer();
      const { token, address } = await adminWithAddress(first, ADMIN, 'hookcrash.youju.test', 'crash');
      const hook = await first.api('POST', 'user/addWebhook', {
        token,
        body: { url: `${receiver.url}/crash` },
      });
      expectOk(hook.body);
      const { id: hookId, secret } = hook.body.data;

      const result = await sendMail(first.smtpPort, {
        to: [address],
        content: simpleMessage(address, 'acknowledged then killed', '验证码 551234'),
      });
      expect(result.data?.code).toBe(250);
      await first.kill();
      const killedAt = Date.now();
      receiver.setFallback(200);

      const second = await startServer();
      try {
        await waitFor(() => receiver.received.some((request) => request.at > killedAt), {
          timeoutMs: 20_000,
          what: 'the delivery after the restart',
        });
        const after = receiver.received.filter((request) => request.at > killedAt);
        const [post] = after;
        if (!post) throw new Error('no post');
        expect(JSON.parse(post.body)).toMatchObject({
          event: 'mail.received',
          address,
          subject: 'acknowledged then killed',
          code: '551234',
        });
        expect(verifySignature(secret, post.headers, post.body)).toBe(true);
        // a POST begun before the kill is the same delivery (same id), so the receiver can drop it
        const keys = new Set(receiver.received.map((request) => request.headers['x-youju-delivery']));
        expect(keys.size).toBe(1);

        const again = await second.api('POST', 'login', { body: ADMIN });
        expectOk(again.body);
        const token2 = again.body.data.token;
        await waitFor(
          async () => {
            const log = await second.api('GET', `user/getWebhookDeliveries?id=${hookId}`, { token: token2 });
            expectOk(log.body);
            return log.body.data.list[0]?.status === 'delivered';
          },
          { what: 'the delivery recorded as delivered' },
        );
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.stop();
    }
  }, 120_000);
});
