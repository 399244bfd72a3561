import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import {
  buildServer,
  killServerProcesses,
  type ServerStore,
  startServerProcess,
} from '../support/server-process.js';
import { splitAddedHeaders } from '../support/smtp-client.js';
import { createPostgresDatabase, testEngine } from '../support/test-server.js';
import {
  deliver,
  expectOneLineFailure,
  inboxBySubject,
  login,
  rawOf,
  runCli,
  sha256Of,
  sqliteStore,
  testMessage,
} from './operations-helpers.js';

/**
 * `youju migrate --to postgres://…`: an SQLite installation filled through SMTP and the API is
 * copied into an empty PostgreSQL database; Youju started there with DATABASE_URL serves the same
 * accounts, passwords, cards and mail (raw bytes included), keeps numbering ids after the copied
 * ones, and the SQLite source is untouched. Needs PostgreSQL: runs with YOUJU_TEST_ENGINE=postgres.
 */

const ADMIN = { username: 'moveadmin', password: 'move-admin-password' };
const USER = { username: 'moveuser', password: 'move-user-password' };
const MAILBOX_PASSWORD = 'mailbox-password-9';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  killServerProcesses();
  for (const cleanup of cleanups) await cleanup();
});

describe.skipIf(testEngine !== 'postgres')('youju migrate --to postgres://', () => {
  it('moves a whole SQLite installation into PostgreSQL, which then serves the same data', async () => {
    buildServer();
    const source: ServerStore = await sqliteStore();
    cleanups.push(source.remove);
    const target = await createPostgresDatabase();
    cleanups.push(target.drop);

    const env = {
      MAIL_HOSTNAME: 'mx.move.test',
      INIT_ADMIN_USER: ADMIN.username,
      INIT_ADMIN_PASSWORD: ADMIN.password,
    };
    const first = await startServerProcess(source, env);
    const admin = await login(first, ADMIN.username, ADMIN.password);
    const user = await first.api('POST', 'admin/createSysAccount', {
      token: admin,
      body: { ...USER, role: 'user', maxDomains: 0 },
    });
    expectOk(user.body);
    const domain = await first.api('POST', 'user/addDomain', {
      token: admin,
      body: { name: 'move.youju.test' },
    });
    expectOk(domain.body);
    const domainId = domain.body.data.id;
    const box = await first.api('POST', 'user/createEmail', {
      token: admin,
      body: { domainId, localPart: 'inbox' },
    });
    expectOk(box.body);
    const address = box.body.data.address;
    const cards = await first.api('POST', 'user/createCard', {
      token: admin,
      body: { count: 3, validDays: 30, domainId },
    });
    expectOk(cards.body);
    const [redeemedCode] = cards.body.data.codes;
    const redeemed = await first.api('POST', 'verCard', {
      body: { code: redeemedCode, localPart: 'carded', domainId, password: MAILBOX_PASSWORD },
    });
    expectOk(redeemed.body);

    const sent = new Map<string, Buffer>();
    for (let index = 0; index < 7; index++) {
      const subject = `moved-${index}`;
      const content = testMessage(address, subject, index);
      sent.set(subject, content);
      expect(await deliver(first.smtpPort, address, content)).toBe(true);
    }
    const inboxBefore = await inboxBySubject(first, admin);
    const cardsBefore = await first.api('GET', 'user/getCard?pageSize=100', { token: admin });
    expectOk(cardsBefore.body);
    await first.stop();

    const database = join(source.dataDir, 'youju.sqlite');
    const before = await sha256Of(database);
    const moved = await runCli(['migrate', '--to', target.url], { DATA_DIR: source.dataDir });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('迁移完成');
    expect(moved.stdout).toContain('message_raw_chunks');
    expect(moved.stdout).not.toContain(`:${new URL(target.url).password}@`);
    // the source is untouched: not written, not checkpointed
    expect(await sha256Of(database)).toBe(before);

    // once more into the same database: refused, it is no longer empty
    expectOneLineFailure(
      await runCli(['migrate', '--to', target.url], { DATA_DIR: source.dataDir }),
      '不是空的',
    );

    const second = await startServerProcess({ ...source, databaseUrl: target.url }, env);
    try {
      const admin2 = await login(second, ADMIN.username, ADMIN.password);
      await login(second, USER.username, USER.password);
      const mailbox = await second.api('POST', 'loginEmail', {
        body: { email: redeemed.body.data.address, password: MAILBOX_PASSWORD },
      });
      expectOk(mailbox.body);

      const inboxAfter = await inboxBySubject(second, admin2);
      expect(inboxAfter).toEqual(inboxBefore);
      for (const [subject, id] of inboxAfter) {
        const message = splitAddedHeaders(await rawOf(second, admin2, id)).message;
        expect(message.equals(sent.get(subject) as Buffer), subject).toBe(true);
      }
      const cardsAfter = await second.api('GET', 'user/getCard?pageSize=100', { token: admin2 });
      expectOk(cardsAfter.body);
      expect(cardsAfter.body.data).toEqual(cardsBefore.body.data);

      // ids go on after the copied ones (the sequences were reset)
      const later = testMessage(address, 'after-move', 1);
      expect(await deliver(second.smtpPort, address, later)).toBe(true);
      const withLater = await inboxBySubject(second, admin2);
      expect(withLater.get('after-move')).toBeGreaterThan(Math.max(...inboxBefore.values()));
      const another = await second.api('POST', 'user/addDomain', {
        token: admin2,
        body: { name: 'next.youju.test' },
      });
      expectOk(another.body);
      expect(another.body.data.id).toBeGreaterThan(domainId);
    } finally {
      await second.stop();
    }
  }, 180_000);

  it('refuses a target that is not PostgreSQL and a missing source, in one line', async () => {
    const empty = await sqliteStore();
    cleanups.push(empty.remove);
    expectOneLineFailure(
      await runCli(['migrate', '--to', 'mysql://x'], { DATA_DIR: empty.dataDir }),
      'postgres://',
    );
    expectOneLineFailure(await runCli(['migrate'], { DATA_DIR: empty.dataDir }), '--to');
    const target = await createPostgresDatabase();
    cleanups.push(target.drop);
    expectOneLineFailure(
      await runCli(['migrate', '--to', target.url], { DATA_DIR: empty.dataDir }),
      '不存在',
    );
    expect(existsSync(join(empty.dataDir, 'youju.sqlite'))).toBe(false);
  }, 60_000);
});
