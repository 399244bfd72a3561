import { describe, expect, it } from 'vitest';
import { expectOk, getRaw } from '../support/api.js';
import { startServerProcess, useServerStore } from '../support/server-process.js';
import { deliver, inboxBySubject, login, testMessage } from './operations-helpers.js';

/**
 * The log of a whole run of the real program at its most verbose level: JSON lines on stdout, SMTP
 * lines carrying their session id, and not one of the passwords, tokens, keys or card codes the
 * run used (right or wrong).
 */

const ADMIN = { username: 'logadmin', password: 'Log-Admin-Secret-7731' };
const USER = { username: 'loguser', password: 'Log-User-Secret-5519' };
const store = useServerStore();

describe('logs', () => {
  it('are JSON lines without a single secret of a full session', async () => {
    const server = await startServerProcess(store(), {
      MAIL_HOSTNAME: 'mx.logs.test',
      INIT_ADMIN_USER: ADMIN.username,
      INIT_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'trace',
    });
    const secrets: string[] = [ADMIN.password, USER.password];
    let storedId = 0;
    try {
      const wrong = ['Wrong-Guess-Secret-0042', 'Wrong-Mailbox-Secret-9913'];
      secrets.push(...wrong);
      const refused = await server.api('POST', 'login', {
        body: { username: ADMIN.username, password: wrong[0] },
      });
      expect(refused.body.error).not.toBe(0);
      const admin = await login(server, ADMIN.username, ADMIN.password);
      secrets.push(admin);

      const created = await server.api('POST', 'admin/createSysAccount', {
        token: admin,
        body: { ...USER, role: 'user', maxDomains: 0 },
      });
      expectOk(created.body);
      const user = await login(server, USER.username, USER.password);
      secrets.push(user);
      const newPassword = 'Log-User-Changed-Secret-3307';
      secrets.push(newPassword);
      const changed = await server.api('POST', 'user/changePassword', {
        token: user,
        body: { oldPassword: USER.password, newPassword },
      });
      expectOk(changed.body);
      secrets.push(changed.body.data.token);

      const key = await server.api('POST', 'user/refreshKey', { token: admin });
      expectOk(key.body);
      secrets.push(key.body.data.key);

      const domain = await server.api('POST', 'user/addDomain', {
        token: admin,
        body: { name: 'logs.youju.test' },
      });
      expectOk(domain.body);
      const domainId = domain.body.data.id;
      const viaKey = await server.api('POST', 'open/createEmail', {
        body: { domainId, localPart: 'viakey' },
        headers: { 'x-api-key': key.body.data.key },
      });
      expectOk(viaKey.body);

      const cards = await server.api('POST', 'user/createCard', {
        token: admin,
        body: { count: 2, validDays: 30, domainId },
      });
      expectOk(cards.body);
      secrets.push(...cards.body.data.codes);
      const mailboxPassword = 'Log-Mailbox-Secret-6621';
      secrets.push(mailboxPassword);
      const redeemed = await server.api('POST', 'verCard', {
        body: { code: cards.body.data.codes[0], localPart: 'carded', domainId, password: mailboxPassword },
      });
      expectOk(redeemed.body);
      const badCard = await server.api('POST', 'verCard', {
        body: { code: 'YJ-ZZZZ-ZZZZ-ZZZZ-ZZZZ', localPart: 'nobody', domainId, password: mailboxPassword },
      });
      expect(badCard.body.error).not.toBe(0);
      secrets.push('YJ-ZZZZ-ZZZZ-ZZZZ-ZZZZ');
      const mailboxRefused = await server.api('POST', 'loginEmail', {
        body: { email: redeemed.body.data.address, password: wrong[1] },
      });
      expect(mailboxRefused.body.error).not.toBe(0);
      const mailbox = await server.api('POST', 'loginEmail', {
        body: { email: redeemed.body.data.address, password: mailboxPassword },
      });
      expectOk(mailbox.body);
      secrets.push(mailbox.body.data.token);

      // SMTP: a delivery, and a refused recipient
      const message = testMessage(redeemed.body.data.address, 'logged', 1);
      expect(await deliver(server.smtpPort, redeemed.body.data.address, message)).toBe(true);
      expect(await deliver(server.smtpPort, 'nobody@logs.youju.test', message)).toBe(false);
      const stored = await inboxBySubject(server, admin);
      const id = stored.get('logged') as number;
      storedId = id;
      // the token in a query string, as the web client's raw and event links carry it
      const raw = await getRaw(server, `user/raw/${id}?token=${admin}`);
      expect(raw.status).toBe(200);
      await server.api('POST', 'logout', { token: mailbox.body.data.token });
    } finally {
      await server.stop();
    }

    const log = server.output();
    for (const secret of secrets) expect(log.includes(secret), `the log shows ${secret}`).toBe(false);

    const lines = log.split('\n').filter((line) => line.trim() !== '');
    const entries = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    expect(entries.every((entry) => typeof entry.level === 'number' && typeof entry.time === 'number')).toBe(
      true,
    );
    // HTTP lines carry the request id, SMTP lines their session id
    expect(entries.some((entry) => typeof entry.reqId === 'string' && entry.req !== undefined)).toBe(true);
    const smtp = entries.filter((entry) => String(entry.msg ?? '').startsWith('smtp'));
    expect(smtp.length).toBeGreaterThan(0);
    for (const entry of smtp) expect(entry.smtpSession, JSON.stringify(entry)).toEqual(expect.any(String));
    const storedLine = smtp.find((entry) => entry.msg === 'smtp: message stored');
    expect(storedLine?.messageIds).toEqual([storedId]);
    const refusedLine = smtp.find((entry) => entry.msg === 'smtp: recipient refused (unknown)');
    expect(refusedLine?.recipient).toBe('nobody@logs.youju.test');
    // both lines of the refused transaction's session, the connect line included, share its id
    expect(smtp.filter((entry) => entry.smtpSession === refusedLine?.smtpSession).length).toBeGreaterThan(1);
  }, 120_000);
});
