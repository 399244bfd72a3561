import { describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { adminWithAddress, startServerProcess, useServerStore } from '../support/server-process.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { testEngine } from '../support/test-server.js';

/**
 * A process reuses its reading of the system settings (settings-service.ts): the SMTP listener asks
 * for them three times a message. A change made through one process must still hold at once in
 * every other process of the deployment, here two instances of the real program on one PostgreSQL
 * database (the change travels by NOTIFY). SQLite is one process's file, so skipped there; the
 * change within one process is covered by every test that updates a setting and then uses it.
 */
const ADMIN = { username: 'settingsadmin', password: 'settings-admin-password' };

describe.skipIf(testEngine !== 'postgres')('system settings across two processes on one database', () => {
  const store = useServerStore();

  it('a size limit changed through one process refuses and admits mail on the other at once', async () => {
    const env = {
      MAIL_HOSTNAME: 'mx.settings.test',
      INIT_ADMIN_USER: ADMIN.username,
      INIT_ADMIN_PASSWORD: ADMIN.password,
    };
    const a = await startServerProcess(store(), env);
    const b = await startServerProcess(store(), env);
    try {
      const { token, address } = await adminWithAddress(a, ADMIN, 'settings.youju.test', 'limits');
      const message = simpleMessage(address, 'size limit', 'x'.repeat(4000));
      const send = () => sendMail(b.smtpPort, { to: [address], content: message, size: message.length });

      // B reads the settings with every message it takes (its reading is now fresh).
      expect((await send()).data?.code).toBe(250);
      for (const [limit, expected] of [
        [2048, 552],
        [1024 * 1024, 250],
        [1024, 552],
      ] as const) {
        expectOk(
          (await a.api('POST', 'user/updateSetting', { token, body: { system: { maxMessageBytes: limit } } }))
            .body,
        );
        const result = await send();
        expect(result.data?.code ?? result.mailFrom?.code, `limit ${limit}`).toBe(expected);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
