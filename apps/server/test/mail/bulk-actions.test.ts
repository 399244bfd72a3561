import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined, expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// The inbox's bulk calls (issue 17, item 5): starEmail, markAllRead, and the caps and ownership of
// setReadEmail and delEmail they sit beside. Every call is tried with ids and addresses that are
// not the caller's: those are left exactly as they were.

let server: TestServer;
let alice: MailWorld;
let bob: MailWorld;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createUserWithDomain(server, 'bulk-alice');
  bob = await createUserWithDomain(server, 'bulk-bob');
});
afterAll(async () => server.close());

async function deliver(to: string, subject: string): Promise<void> {
  const result = await sendMail(server.smtpPort, { to: [to], content: simpleMessage(to, subject, 'body') });
  expect(result.data?.code).toBe(250);
}

/** An address of `world` with `count` new messages; their ids, newest first. */
async function boxWithMail(world: MailWorld, count: number): Promise<{ address: string; ids: number[] }> {
  const box = await createAddress(server, world);
  for (let i = 0; i < count; i++) await deliver(box.address, `message ${i}`);
  const ids = (await inbox(server, world.userToken, `&address=${box.address}`)).list.map((m) => m.id);
  expect(ids).toHaveLength(count);
  return { address: box.address, ids };
}

/** A mailbox account registered on `world`'s open domain, logged in; its address and token. */
async function mailboxSession(world: MailWorld): Promise<{ address: string; token: string }> {
  const reg = await server.api('POST', 'regEmail', {
    body: { domainId: world.domainId, password: 'mailbox-pass-1' },
  });
  expectOk(reg.body);
  return { address: reg.body.data.email, token: reg.body.data.token };
}

async function flags(ids: number[]) {
  const rows = await server.app.database.db
    .selectFrom('messages')
    .select(['id', 'read', 'starred', 'modseq', 'mailbox_id', 'folder'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, modseq: Number(row.modseq) }));
}

async function unread(token: string) {
  const response = await server.api('GET', 'user/getUnreadEmail', { token });
  expectOk(response.body);
  return response.body.data;
}

describe('starEmail', () => {
  it('stars and unstars the caller’s messages in one call and skips everyone else’s', async () => {
    const mine = await boxWithMail(alice, 3);
    const theirs = await boxWithMail(bob, 2);
    const starred = await server.api('POST', 'user/starEmail', {
      token: alice.userToken,
      body: { ids: [...mine.ids, ...theirs.ids, 999_999_999], starred: true },
    });
    expectOk(starred.body);
    expect(starred.body.data.updated).toBe(3);
    expect((await flags(mine.ids)).every((row) => row.starred === 1)).toBe(true);
    expect((await flags(theirs.ids)).every((row) => row.starred === 0)).toBe(true);
    expect((await inbox(server, alice.userToken, `&address=${mine.address}&starred=true`)).total).toBe(3);

    // Bob, with only Alice's ids, changes nothing and learns nothing beyond "0 changed".
    const attack = await server.api('POST', 'user/starEmail', {
      token: bob.userToken,
      body: { ids: mine.ids, starred: false },
    });
    expectOk(attack.body);
    expect(attack.body.data.updated).toBe(0);
    expect((await flags(mine.ids)).every((row) => row.starred === 1)).toBe(true);

    const first = expectDefined(mine.ids[0], 'a message');
    const unstar = await server.api('POST', 'user/starEmail', {
      token: alice.userToken,
      body: { ids: [first], starred: false },
    });
    expect(unstar.body.data?.updated).toBe(1);
    expect((await flags([first]))[0]?.starred).toBe(0);
  });

  it('keeps a mailbox session to its own messages, even those of its owner’s other addresses', async () => {
    const session = await mailboxSession(alice);
    await deliver(session.address, 'to the mailbox');
    const own = (await inbox(server, session.token)).list.map((m) => m.id);
    const sibling = await boxWithMail(alice, 1);
    const response = await server.api('POST', 'user/starEmail', {
      token: session.token,
      body: { ids: [...own, ...sibling.ids], starred: true },
    });
    expect(response.body.data?.updated).toBe(1);
    expect((await flags(own))[0]?.starred).toBe(1);
    expect((await flags(sibling.ids))[0]?.starred).toBe(0);
  });

  it('gives the changed messages their folder’s new modseq, so IMAP clients see the change', async () => {
    const mine = await boxWithMail(alice, 2);
    const before = await flags(mine.ids);
    await server.api('POST', 'user/starEmail', {
      token: alice.userToken,
      body: { ids: mine.ids, starred: true },
    });
    const after = await flags(mine.ids);
    for (const [index, row] of after.entries()) {
      expect(row.modseq).toBeGreaterThan(expectDefined(before[index], 'the row before').modseq);
    }
  });

  it('refuses bad input with 400: no ids, too many ids, no starred, ids that are not ids', async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1);
    for (const body of [
      { ids: [], starred: true },
      { ids: tooMany, starred: true },
      { ids: [1] },
      { ids: ['x'], starred: true },
      { ids: [1], starred: 'yes' },
    ]) {
      const response = await server.api('POST', 'user/starEmail', { token: alice.userToken, body });
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(response.body.error).toBe(400);
    }
    const atCap = await server.api('POST', 'user/starEmail', {
      token: alice.userToken,
      body: { ids: tooMany.slice(0, 1000), starred: false },
    });
    expect(atCap.status).toBe(200);
    expect((await server.api('POST', 'user/starEmail', { body: { ids: [1], starred: true } })).status).toBe(
      401,
    );
  });
});

describe('setReadEmail and delEmail in bulk', () => {
  it('change only the caller’s ids of a mix, and refuse more than 1000 ids with 400', async () => {
    const mine = await boxWithMail(alice, 2);
    const theirs = await boxWithMail(bob, 2);
    const mixed = [...mine.ids, ...theirs.ids];
    expectOk(
      (await server.api('POST', 'user/setReadEmail', { token: alice.userToken, body: { ids: mixed } })).body,
    );
    expect((await flags(mine.ids)).every((row) => row.read === 1)).toBe(true);
    expect((await flags(theirs.ids)).every((row) => row.read === 0)).toBe(true);

    const deleted = await server.api('POST', 'user/delEmail', {
      token: alice.userToken,
      body: { ids: mixed },
    });
    expect(deleted.body.data?.deleted).toBe(2);
    expect(await flags(mine.ids)).toEqual([]);
    expect(await flags(theirs.ids)).toHaveLength(2);

    const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1);
    for (const path of ['user/setReadEmail', 'user/delEmail'] as const) {
      const response = await server.api('POST', path, { token: alice.userToken, body: { ids: tooMany } });
      expect(response.status, path).toBe(400);
    }
    expect(await flags(theirs.ids)).toHaveLength(2);
  });
});

describe('markAllRead', () => {
  it('marks all of one address read and nothing else; counts follow', async () => {
    const first = await boxWithMail(alice, 3);
    const second = await boxWithMail(alice, 2);
    const theirs = await boxWithMail(bob, 2);
    const bobBefore = await unread(bob.userToken);
    const response = await server.api('POST', 'user/markAllRead', {
      token: alice.userToken,
      body: { address: first.address.toUpperCase() },
    });
    expectOk(response.body);
    expect(response.body.data.updated).toBe(3);
    expect((await flags(first.ids)).every((row) => row.read === 1)).toBe(true);
    expect((await flags(second.ids)).every((row) => row.read === 0)).toBe(true);
    const counts = await unread(alice.userToken);
    expect(counts.byAddress[first.address]).toBeUndefined();
    expect(counts.byAddress[second.address]).toBe(2);
    const list = await server.api('GET', 'user/emailList', { token: alice.userToken });
    expect(list.body.data?.find((item) => item.address === first.address)?.unread).toBe(0);
    expect(await unread(bob.userToken)).toEqual(bobBefore);
    expect((await flags(theirs.ids)).every((row) => row.read === 0)).toBe(true);

    // Again: nothing left to change.
    const again = await server.api('POST', 'user/markAllRead', {
      token: alice.userToken,
      body: { address: first.address },
    });
    expect(again.body.data?.updated).toBe(0);
  });

  it('marks all of the caller’s mail read, junk included, and advances the folders’ modseq', async () => {
    const world = await createUserWithDomain(server, 'bulk-all');
    const one = await boxWithMail(world, 2);
    const two = await boxWithMail(world, 1);
    const junkId = expectDefined(two.ids[0], 'a message');
    await server.api('POST', 'user/updateEmail', {
      token: world.userToken,
      body: { id: junkId, spam: true },
    });
    const theirs = await boxWithMail(bob, 1);
    const folderModseq = async () =>
      (
        await server.app.database.db
          .selectFrom('mail_folders')
          .select(['mailbox_id', 'name', 'highest_modseq'])
          .where('mailbox_id', 'in', [
            ...new Set((await flags([...one.ids, ...two.ids])).map((r) => r.mailbox_id)),
          ])
          .execute()
      ).map((row) => ({ ...row, highest_modseq: Number(row.highest_modseq) }));
    const before = await folderModseq();

    const response = await server.api('POST', 'user/markAllRead', { token: world.userToken, body: {} });
    expect(response.body.data?.updated).toBe(3);
    expect(await unread(world.userToken)).toEqual({ total: 0, byAddress: {} });
    expect((await flags(theirs.ids))[0]?.read).toBe(0);

    const after = await folderModseq();
    const rows = await flags([...one.ids, ...two.ids]);
    for (const row of rows) {
      const folder = expectDefined(
        after.find((f) => f.mailbox_id === row.mailbox_id && f.name === row.folder),
        'the folder row',
      );
      const old = expectDefined(
        before.find((f) => f.mailbox_id === row.mailbox_id && f.name === row.folder),
        'the folder row before',
      );
      expect(folder.highest_modseq).toBeGreaterThan(old.highest_modseq);
      expect(row.modseq).toBe(folder.highest_modseq);
      expect(row.read).toBe(1);
    }
    // Folders with nothing unread (sent, drafts, trash) were left alone.
    const untouched = after.filter((f) => !['inbox', 'junk'].includes(f.name));
    for (const folder of untouched) {
      expect(folder.highest_modseq).toBe(
        before.find((f) => f.mailbox_id === folder.mailbox_id && f.name === folder.name)?.highest_modseq,
      );
    }
  });

  it('answers 404 for an address outside the caller’s mail, exactly like one that does not exist', async () => {
    const theirs = await boxWithMail(bob, 2);
    const attack = await server.api('POST', 'user/markAllRead', {
      token: alice.userToken,
      body: { address: theirs.address },
    });
    const missing = await server.api('POST', 'user/markAllRead', {
      token: alice.userToken,
      body: { address: `nobody@${alice.domain}` },
    });
    expect(attack.status).toBe(404);
    expect(attack.body).toEqual(missing.body);
    expect((await flags(theirs.ids)).every((row) => row.read === 0)).toBe(true);
    for (const body of [{ address: '' }, { address: 'x'.repeat(255) }, { address: 7 }]) {
      expect((await server.api('POST', 'user/markAllRead', { token: alice.userToken, body })).status).toBe(
        400,
      );
    }
    expect((await server.api('POST', 'user/markAllRead', { body: {} })).status).toBe(401);
  });

  it('lets a mailbox session mark only itself: no other mailbox, not even its owner’s', async () => {
    const session = await mailboxSession(alice);
    await deliver(session.address, 'one');
    await deliver(session.address, 'two');
    const sibling = await boxWithMail(alice, 1);
    const theirs = await boxWithMail(bob, 1);
    for (const address of [sibling.address, theirs.address]) {
      const response = await server.api('POST', 'user/markAllRead', {
        token: session.token,
        body: { address },
      });
      expect(response.status, address).toBe(404);
    }
    const own = await server.api('POST', 'user/markAllRead', {
      token: session.token,
      body: { address: session.address },
    });
    expect(own.body.data?.updated).toBe(2);
    await deliver(session.address, 'three');
    const all = await server.api('POST', 'user/markAllRead', { token: session.token, body: {} });
    expect(all.body.data?.updated).toBe(1);
    expect(await unread(session.token)).toEqual({ total: 0, byAddress: {} });
    expect((await flags(sibling.ids))[0]?.read).toBe(0);
    expect((await flags(theirs.ids))[0]?.read).toBe(0);
  });

  it('lets an administrator mark any one address read', async () => {
    const theirs = await boxWithMail(bob, 2);
    const response = await server.api('POST', 'user/markAllRead', {
      token: alice.adminToken,
      body: { address: theirs.address },
    });
    expect(response.body.data?.updated).toBe(2);
    expect((await unread(bob.userToken)).byAddress[theirs.address]).toBeUndefined();
  });
});
