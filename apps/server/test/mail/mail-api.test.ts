import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined, expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let alice: MailWorld;
let bob: MailWorld;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createUserWithDomain(server, 'alice');
  bob = await createUserWithDomain(server, 'bob');
});
afterAll(async () => server.close());

async function deliver(to: string, subject: string, body = 'hello'): Promise<void> {
  const result = await sendMail(server.smtpPort, { to: [to], content: simpleMessage(to, subject, body) });
  expect(result.data?.code).toBe(250);
}

describe('addresses', () => {
  it('creates chosen and random addresses, refuses a taken one with 409 and foreign domains with 404', async () => {
    const chosen = await server.api('POST', 'user/createEmail', {
      token: alice.userToken,
      body: { domainId: alice.domainId, localPart: 'Hello.World' },
    });
    expect(chosen.body.data?.address).toBe(`hello.world@${alice.domain}`);
    const again = await server.api('POST', 'user/createEmail', {
      token: alice.userToken,
      body: { domainId: alice.domainId, localPart: 'hello.world' },
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/已被占用/);
    const random = await server.api('POST', 'user/createEmail', {
      token: alice.userToken,
      body: { domainId: alice.domainId },
    });
    expect(random.body.data?.address).toMatch(
      new RegExp(`^[a-z0-9]{10}@${alice.domain.replace(/\./g, '\\.')}$`),
    );
    const foreign = await server.api('POST', 'user/createEmail', {
      token: alice.userToken,
      body: { domainId: bob.domainId },
    });
    expect(foreign.status).toBe(404);
    const bad = await server.api('POST', 'user/createEmail', {
      token: alice.userToken,
      body: { domainId: alice.domainId, localPart: 'bad local' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/邮箱前缀/);
  });

  it('lists addresses with unread counts and deletes an address with its mail', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, 'one');
    await deliver(box.address, 'two');
    const list = await server.api('GET', 'user/emailList', { token: alice.userToken });
    expect(list.body.data?.find((a) => a.id === box.id)).toMatchObject({
      address: box.address,
      unread: 2,
    });
    expect(list.body.data?.some((a) => a.address.endsWith(bob.domain))).toBe(false);
    expect((await server.api('DELETE', `user/deleteEmail/${box.id}`, { token: bob.userToken })).status).toBe(
      404,
    );
    const removed = await server.api('DELETE', `user/deleteEmail/${box.id}`, { token: alice.userToken });
    expectOk(removed.body);
    expect((await inbox(server, alice.userToken, `&address=${box.address}`)).total).toBe(0);
    const raws = await server.app.database.db.selectFrom('raw_messages').select('id').execute();
    const messages = await server.app.database.db.selectFrom('messages').select('raw_id').execute();
    expect(raws.every((raw) => messages.some((m) => m.raw_id === raw.id))).toBe(true);
  });
});

describe('reading mail', () => {
  it('pages, filters by unread and starred, searches subject, sender and body', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, 'Quarterly report', 'numbers inside');
    await deliver(box.address, '午餐安排', '明天中午吃饺子');
    await deliver(box.address, 'Third', 'plain');
    const all = await inbox(server, alice.userToken, `&address=${box.address}&pageSize=2`);
    expect(all.total).toBe(3);
    expect(all.list).toHaveLength(2);
    const first = expectDefined(all.list[0], 'the newest message');
    expect(first.subject).toBe('Third');
    const page2 = await server.api('GET', `user/getInbox?address=${box.address}&pageSize=2&page=2`, {
      token: alice.userToken,
    });
    expect(page2.body.data?.list).toHaveLength(1);

    const search = async (q: string) =>
      (await inbox(server, alice.userToken, `&address=${box.address}&q=${encodeURIComponent(q)}`)).list.map(
        (m) => m.subject,
      );
    expect(await search('quarterly')).toEqual(['Quarterly report']);
    expect(await search('饺子')).toEqual(['午餐安排']);
    expect(await search('tester@sender')).toHaveLength(3);
    expect(await search('100%_')).toEqual([]);

    await server.api('POST', 'user/setReadEmail', { token: alice.userToken, body: { ids: [first.id] } });
    expect((await inbox(server, alice.userToken, `&address=${box.address}&unread=true`)).total).toBe(2);
    const starred = await server.api('POST', 'user/updateEmail', {
      token: alice.userToken,
      body: { id: first.id, starred: true },
    });
    expect(starred.body.data?.starred).toBe(true);
    expect((await inbox(server, alice.userToken, `&address=${box.address}&starred=true`)).list[0]?.id).toBe(
      first.id,
    );
    await server.api('POST', 'user/setReadEmail', {
      token: alice.userToken,
      body: { ids: [first.id], read: false },
    });
    const unread = await server.api('GET', 'user/getUnreadEmail', { token: alice.userToken });
    expect(unread.body.data?.byAddress[box.address]).toBe(3);
  });

  it('deletes by ids and by time range, giving the quota back', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, 'a');
    await deliver(box.address, 'b');
    await deliver(box.address, 'c');
    const list = (await inbox(server, alice.userToken, `&address=${box.address}`)).list;
    const deleted = await server.api('POST', 'user/delEmail', {
      token: alice.userToken,
      body: { ids: [expectDefined(list[0], 'a message').id] },
    });
    expect(deleted.body.data?.deleted).toBe(1);
    const range = await server.api('POST', 'user/deleteEmailsInTimeRange', {
      token: alice.userToken,
      body: {
        start: Date.now() - 60_000,
        end: new Date(Date.now() + 1000).toISOString(),
        address: box.address,
      },
    });
    expect(range.body.data?.deleted).toBe(2);
    const { used_bytes } = await server.app.database.db
      .selectFrom('mailboxes')
      .select('used_bytes')
      .where('id', '=', box.id)
      .executeTakeFirstOrThrow();
    expect(Number(used_bytes)).toBe(0);
    const badRange = await server.api('POST', 'user/deleteEmailsInTimeRange', {
      token: alice.userToken,
      body: { start: 'yesterday-ish', end: Date.now() },
    });
    expect(badRange.status).toBe(400);
    expect(badRange.body.msg).toMatch(/开始时间/);
  });
});

describe('authorization', () => {
  it('keeps users, mailbox sessions and administrators to their own mail', async () => {
    const aliceBox = await createAddress(server, alice);
    await deliver(aliceBox.address, 'for alice only');
    const item = expectDefined(
      (await inbox(server, alice.userToken, `&address=${aliceBox.address}`)).list[0],
      'the message for alice',
    );

    // Bob sees nothing of Alice's and every id of hers answers 404, exactly like a missing one.
    expect((await inbox(server, bob.userToken)).list.some((m) => m.id === item.id)).toBe(false);
    expect((await inbox(server, bob.userToken, `&address=${aliceBox.address}`)).total).toBe(0);
    for (const [method, path, body] of [
      ['GET', `user/getEmail?id=${item.id}`, undefined],
      ['GET', `user/raw/${item.id}`, undefined],
      ['GET', `user/attachment/${item.id}-0`, undefined],
      ['POST', 'user/updateEmail', { id: item.id, starred: true }],
    ] as const) {
      const response = await server.api(method, path, { token: bob.userToken, body });
      const missing = await server.api(method, path.replace(String(item.id), '999999'), {
        token: bob.userToken,
        body: body ? { ...body, id: 999999 } : undefined,
      });
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual(missing.body);
    }
    await server.api('POST', 'user/setReadEmail', { token: bob.userToken, body: { ids: [item.id] } });
    const deleted = await server.api('POST', 'user/delEmail', {
      token: bob.userToken,
      body: { ids: [item.id] },
    });
    expect(deleted.body.data?.deleted).toBe(0);
    await server.api('POST', 'user/deleteEmailsInTimeRange', {
      token: bob.userToken,
      body: { start: 0, end: Date.now() + 1000 },
    });
    const still = await server.api('GET', `user/getEmail?id=${item.id}`, { token: alice.userToken });
    expect(still.body.data?.subject).toBe('for alice only');
    expect(still.body.data?.read).toBe(true);

    // A mailbox session (registered mailbox on Bob's open domain) sees only its own mail.
    const reg = await server.api('POST', 'regEmail', {
      body: { domainId: bob.domainId, localPart: 'reader', password: 'mailbox-pass-1' },
    });
    expectOk(reg.body);
    const mailboxToken = reg.body.data.token;
    await deliver(reg.body.data.email, 'for the mailbox');
    const own = await inbox(server, mailboxToken);
    expect(own.list.map((m) => m.subject)).toEqual(['for the mailbox']);
    expect((await server.api('GET', `user/getEmail?id=${item.id}`, { token: mailboxToken })).status).toBe(
      404,
    );
    expect((await server.api('GET', 'user/emailList', { token: mailboxToken })).status).toBe(403);
    expect((await server.api('GET', 'user/getFilters', { token: mailboxToken })).status).toBe(403);
    const unread = await server.api('GET', 'user/getUnreadEmail', { token: mailboxToken });
    expect(unread.body.data).toEqual({ total: 1, byAddress: { [reg.body.data.email]: 1 } });
    // Bob owns the domain, so he reads that mailbox's mail; Alice does not.
    expect((await inbox(server, bob.userToken, `&address=${reg.body.data.email}`)).total).toBe(1);
    expect((await inbox(server, alice.userToken, `&address=${reg.body.data.email}`)).total).toBe(0);
    // The administrator reads everything.
    const admin = await server.api('GET', `user/getEmail?id=${item.id}`, { token: alice.adminToken });
    expect(admin.body.data?.subject).toBe('for alice only');
    expect((await server.api('GET', 'user/getInbox')).body.error).toBe(302);
  });
});

describe('filters API', () => {
  it('refuses a bad regex with a Chinese message and scopes filters to their owner', async () => {
    const bad = await server.api('POST', 'user/addFilter', {
      token: alice.userToken,
      body: { field: 'subject', match: 'regex', value: '(unclosed', action: 'reject' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/正则表达式无效/);
    const good = await server.api('POST', 'user/addFilter', {
      token: alice.userToken,
      body: { field: 'from', match: 'contains', value: 'spammer', action: 'spam' },
    });
    expectOk(good.body);
    expect(good.body.data).toMatchObject({
      field: 'from',
      match: 'contains',
      value: 'spammer',
      action: 'spam',
      enabled: true,
    });
    expect((await server.api('GET', 'user/getFilters', { token: bob.userToken })).body.data).toEqual([]);
    expect(
      (await server.api('POST', 'user/delFilter', { token: bob.userToken, body: { id: good.body.data.id } }))
        .status,
    ).toBe(404);
    expect((await server.api('GET', 'user/getFilters', { token: alice.userToken })).body.data).toHaveLength(
      1,
    );
    expect(
      (
        await server.api('POST', 'user/delFilter', {
          token: alice.userToken,
          body: { id: good.body.data.id },
        })
      ).body.error,
    ).toBe(0);
  });
});

describe('live inbox (server-sent events)', () => {
  it('delivers a new message to an open event stream within a second, only to those who may see it', async () => {
    const box = await createAddress(server, alice);
    const open = async (token: string) => {
      const controller = new AbortController();
      const response = await fetch(`${server.baseUrl}/api/user/events?token=${token}`, {
        signal: controller.signal,
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.getReader();
      let buffer = '';
      /** The next `mail` event's data, or null when none comes within `timeoutMs`. */
      const next = async (timeoutMs: number): Promise<unknown> => {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          const match = /event: mail\ndata: (.*)\n\n/.exec(buffer);
          if (match) {
            buffer = buffer.slice((match.index ?? 0) + match[0].length);
            return JSON.parse(match[1] ?? 'null') as unknown;
          }
          const chunk = await Promise.race([
            reader.read(),
            new Promise<null>((resolve) =>
              setTimeout(() => resolve(null), Math.max(1, deadline - Date.now())),
            ),
          ]);
          if (chunk && !chunk.done) buffer += new TextDecoder().decode(chunk.value);
        }
        return null;
      };
      return { next, close: () => controller.abort() };
    };
    const aliceStream = await open(alice.userToken);
    const bobStream = await open(bob.userToken);
    try {
      const started = Date.now();
      await deliver(box.address, '实时到达', '您的登录验证码是 604218，5 分钟内有效。');
      const event = await aliceStream.next(1000);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(event).toMatchObject({ address: box.address, subject: '实时到达', read: false, code: '604218' });
      expect(await bobStream.next(300)).toBeNull();
    } finally {
      aliceStream.close();
      bobStream.close();
    }
    const refused = await fetch(`${server.baseUrl}/api/user/events?token=wrong`);
    expect(refused.status).toBe(401);
  });
});
