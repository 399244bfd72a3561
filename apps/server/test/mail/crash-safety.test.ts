import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectOk, getRaw } from '../support/api.js';
import { type ServerProcess, startServerProcess, useServerStore } from '../support/server-process.js';
import { smtpLoad, splitAddedHeaders } from '../support/smtp-client.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Crash safety: the real program (`node apps/server/dist/server.js`) takes mail from concurrent
 * senders and is killed with SIGKILL while messages are in flight; after a restart on the same data
 * directory and database, every message that got "250" must be there, byte for byte.
 */
const ADMIN = { username: 'crashadmin', password: 'crash-admin-password' };

const store = useServerStore();

function startServer(): Promise<ServerProcess> {
  return startServerProcess(store(), {
    MAIL_HOSTNAME: 'mx.crash.test',
    INIT_ADMIN_USER: ADMIN.username,
    INIT_ADMIN_PASSWORD: ADMIN.password,
  });
}

function message(to: string, index: number): Buffer {
  // Mostly small messages, every fourth one a few megabytes so that some are mid-stream at the kill.
  const payload = randomBytes(index % 4 === 0 ? 3 * 1024 * 1024 : 2048)
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
  return Buffer.from(
    `From: <load@sender.example>\r\nTo: <${to}>\r\nSubject: crash-${index}\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n${payload}\r\n`,
  );
}

describe('crash safety', () => {
  it('keeps every acknowledged message intact across kill -9', async () => {
    const first = await startServer();
    const login = await first.api('POST', 'login', { body: ADMIN });
    expectOk(login.body);
    const token = login.body.data.token;
    const domain = await first.api('POST', 'user/addDomain', { token, body: { name: 'crash.youju.test' } });
    expectOk(domain.body);
    const box = await first.api('POST', 'user/createEmail', {
      token,
      body: { domainId: domain.body.data.id, localPart: 'load' },
    });
    expectOk(box.body);
    const address = box.body.data.address;

    const { sent, acknowledged, stop } = smtpLoad(first.smtpPort, address, (index) =>
      message(address, index),
    );
    // Kill once enough mail got through, in the middle of the traffic.
    await waitFor(() => acknowledged.size >= 12, {
      timeoutMs: 20_000,
      intervalMs: 20,
      what: '12 acknowledged messages',
    }).catch(() => {
      // too few in time: the count is asserted below, after the kill
    });
    first.process.kill('SIGKILL');
    await stop();
    expect(acknowledged.size).toBeGreaterThanOrEqual(12);

    const second = await startServer();
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
    for (const index of acknowledged) {
      const id = stored.get(`crash-${index}`);
      expect(id, `acknowledged message crash-${index} is missing`).toBeDefined();
    }
    // Everything stored, acknowledged or not (a commit can beat the reply to a kill), is intact.
    for (const [subject, id] of stored) {
      const index = Number(subject.replace('crash-', ''));
      const { bytes } = await getRaw(second, `user/raw/${id}?token=${token2}`);
      expect(
        splitAddedHeaders(bytes).message.equals(sent.get(index) ?? Buffer.alloc(0)),
        `${subject} differs`,
      ).toBe(true);
    }
    await second.stop();
  }, 120_000);
});
