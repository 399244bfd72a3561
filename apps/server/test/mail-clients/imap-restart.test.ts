import { ImapFlow } from 'imapflow';
import { describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { freePort } from '../support/ports.js';
import { type ServerProcess, startServerProcess, useServerStore } from '../support/server-process.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { defined } from './mail-client-helpers.js';

/**
 * UIDVALIDITY and UIDs belong to the store, not to a process: the real program is stopped and
 * started again on the same data directory and database, and a client sees the same numbers.
 */
const ADMIN = { username: 'imapadmin', password: 'imap-admin-password' };
const store = useServerStore();

async function startServer(): Promise<{ process: ServerProcess; imapPort: number }> {
  const imapPort = await freePort();
  const process = await startServerProcess(store(), {
    MAIL_HOSTNAME: 'mx.restart.test',
    INIT_ADMIN_USER: ADMIN.username,
    INIT_ADMIN_PASSWORD: ADMIN.password,
    IMAP_PORT: String(imapPort),
  });
  return { process, imapPort };
}

async function folderState(port: number, user: string, pass: string) {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    doSTARTTLS: false,
    auth: { user, pass },
    logger: false,
  });
  await client.connect();
  try {
    const box = await client.mailboxOpen('INBOX');
    const uids: number[] = [];
    for await (const message of client.fetch('1:*', { uid: true })) uids.push(message.uid);
    const sent = defined(await client.status('Sent', { uidValidity: true, uidNext: true, messages: true }));
    return { uidValidity: box.uidValidity, uidNext: box.uidNext, uids, sent };
  } finally {
    await client.logout();
  }
}

describe('IMAP UIDs across a restart', () => {
  it('keeps UIDVALIDITY, UIDs and UIDNEXT of every folder, and goes on numbering after them', async () => {
    const first = await startServer();
    const login = await first.process.api('POST', 'login', { body: ADMIN });
    expectOk(login.body);
    const token = login.body.data.token;
    const domain = await first.process.api('POST', 'user/addDomain', {
      token,
      body: { name: 'restart.youju.test' },
    });
    expectOk(domain.body);
    const password = 'restart-mailbox-pw1';
    const account = await first.process.api('POST', 'user/createEmailAccount', {
      token,
      body: { domainId: domain.body.data.id, localPart: 'keeper', password },
    });
    expectOk(account.body);
    const email = 'keeper@restart.youju.test';
    for (const subject of ['one', 'two', 'three']) {
      const sent = await sendMail(first.process.smtpPort, {
        to: [email],
        content: simpleMessage(email, subject, subject),
      });
      expect(sent.data?.code).toBe(250);
    }
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: first.imapPort,
      secure: false,
      doSTARTTLS: false,
      auth: { user: email, pass: password },
      logger: false,
    });
    await client.connect();
    await client.append('Sent', Buffer.from('Subject: kept\r\n\r\nkept\r\n'));
    await client.logout();

    const before = await folderState(first.imapPort, email, password);
    expect(before.uids).toHaveLength(3);
    expect(before.sent.messages).toBe(1);
    await first.process.stop();

    const second = await startServer();
    try {
      const after = await folderState(second.imapPort, email, password);
      expect(after).toEqual(before);
      const more = await sendMail(second.process.smtpPort, {
        to: [email],
        content: simpleMessage(email, 'four', 'four'),
      });
      expect(more.data?.code).toBe(250);
      const latest = await folderState(second.imapPort, email, password);
      expect(latest.uidValidity).toBe(before.uidValidity);
      expect(latest.uids.slice(0, 3)).toEqual(before.uids);
      expect(latest.uids[3]).toBe(Number(before.uidNext));
    } finally {
      await second.process.stop();
    }
  });
});
