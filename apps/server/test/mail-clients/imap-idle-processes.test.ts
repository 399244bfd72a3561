import { describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { freePort } from '../support/ports.js';
import { startServerProcess, useServerStore } from '../support/server-process.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { testEngine } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';
import { defined, imapClient } from './mail-client-helpers.js';

/**
 * IDLE across processes: two instances of the real program share one PostgreSQL database (as two
 * replicas behind a load balancer would). Mail stored over SMTP on A, a star and a delete on A's
 * web API, reach an IDLE session on B, which shares no memory with A: only the folder row in the
 * database (README "How a session follows the store"). SQLite is one process's file, so skipped.
 */
const ADMIN = { username: 'idleadmin', password: 'idle-admin-password' };

describe.skipIf(testEngine !== 'postgres')(
  'IMAP IDLE across two processes on one PostgreSQL database',
  () => {
    const store = useServerStore();

    it('pushes EXISTS after SMTP on the other process, FETCH after a web star there, EXPUNGE after a web delete', async () => {
      const env = {
        MAIL_HOSTNAME: 'mx.idle.test',
        INIT_ADMIN_USER: ADMIN.username,
        INIT_ADMIN_PASSWORD: ADMIN.password,
      };
      const a = await startServerProcess(store(), env);
      const imapPort = await freePort();
      const b = await startServerProcess(store(), { ...env, IMAP_PORT: String(imapPort) });
      try {
        const login = await a.api('POST', 'login', { body: ADMIN });
        expectOk(login.body);
        const token = login.body.data.token;
        const domain = await a.api('POST', 'user/addDomain', { token, body: { name: 'idle.youju.test' } });
        expectOk(domain.body);
        const password = 'idle-mailbox-pw1';
        expectOk(
          (
            await a.api('POST', 'user/createEmailAccount', {
              token,
              body: { domainId: domain.body.data.id, localPart: 'watcher', password },
            })
          ).body,
        );
        const email = 'watcher@idle.youju.test';
        const web = await a.api('POST', 'loginEmail', { body: { email, password } });
        expectOk(web.body);
        const mailbox = web.body.data.token;

        const client = await imapClient(imapPort, { email, password });
        await client.mailboxOpen('INBOX');
        const events: string[] = [];
        client.on('exists', (data: { count: number }) => events.push(`exists ${data.count}`));
        client.on('expunge', () => events.push('expunge'));
        client.on('flags', (data: { flags: Set<string> }) =>
          events.push(`flags ${[...data.flags].sort().join(' ')}`),
        );
        const idling = client.idle();
        await new Promise((resolve) => setTimeout(resolve, 200));

        expect(
          (await sendMail(a.smtpPort, { to: [email], content: simpleMessage(email, 'across', 'x') })).data
            ?.code,
        ).toBe(250);
        // The session polls the folder row every 500 ms during IDLE: a generous bound, not a timing test.
        await waitFor(() => events.includes('exists 1'), { timeoutMs: 5_000 });

        const list = await a.api('GET', 'user/getInbox?pageSize=10', { token: mailbox });
        expectOk(list.body);
        const id = defined(list.body.data.list[0]).id;
        expectOk(
          (await a.api('POST', 'user/updateEmail', { token: mailbox, body: { id, starred: true } })).body,
        );
        await waitFor(
          () => events.some((event) => event.startsWith('flags') && event.includes('\\Flagged')),
          {
            timeoutMs: 5_000,
          },
        );

        expectOk((await a.api('POST', 'user/delEmail', { token: mailbox, body: { ids: [id] } })).body);
        await waitFor(() => events.includes('expunge'), { timeoutMs: 5_000 });
        await client.logout();
        await idling.catch(() => {});
      } finally {
        await a.stop();
        await b.stop();
      }
    });
  },
);
