import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as bigramMigration from '../../src/db/migrations/056_bigram_search_index.js';
import { bigramQuery } from '../../src/db/search-bigrams.js';
import { createMailService, type MailService } from '../../src/modules/mail/mail-service.js';
import type { AuthContext } from '../../src/modules/sessions/session-service.js';
import { expectDefined, expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail } from '../support/smtp-client.js';
import { startTestServer, type TestServer, testEngine } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

let server: TestServer;
let alice: MailWorld;
let bob: MailWorld;
/** Alice's mail service with the trigram index forced on for every search of 3+ characters. */
let indexed: MailService;
let aliceAuth: AuthContext;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createUserWithDomain(server, 'searcher');
  bob = await createUserWithDomain(server, 'other');
  const { db, engine } = server.app.database;
  indexed = createMailService(db, engine, server.app.services.settings, {
    searchTuning: { smallScope: 0, scanToIndexRatio: 0, candidateLimit: Number.MAX_SAFE_INTEGER },
  });
  aliceAuth = { sessionId: 0, role: 'user', accountId: alice.userId, mailboxId: null, name: 'alice' };
});
afterAll(async () => server.close());

/** Delivers over real SMTP a message with the given sender, subject and plain-text body. */
async function deliver(
  to: string,
  message: { fromName?: string; fromAddress?: string; subject: string; body?: string },
): Promise<void> {
  const content = Buffer.from(
    [
      `From: ${message.fromName ?? 'Tester'} <${message.fromAddress ?? 'tester@sender.example'}>`,
      `To: <${to}>`,
      `Subject: ${message.subject}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      message.body ?? 'hello',
      '',
    ].join('\r\n'),
    'utf8',
  );
  const result = await sendMail(server.smtpPort, { to: [to], content });
  expect(result.data?.code).toBe(250);
  await searchIndexCaughtUp();
}

/**
 * On SQLite new mail enters the search index a moment after it is stored (migration 046), so the
 * forced-index plan finds it only then.
 */
async function searchIndexCaughtUp(): Promise<void> {
  if (testEngine !== 'sqlite') return;
  await waitFor(
    async () => {
      const { rows } = await sql<{ behind: number }>`select count(*) as behind from messages
        where id > (select last_message_id from search_index_cursor)`.execute(server.app.database.db);
      return Number(rows[0]?.behind) === 0;
    },
    { what: 'the search index to take in new mail' },
  );
}

/**
 * Subjects found for `text` through the API (default plan) and through the forced index; both
 * must agree, newest first.
 */
async function search(text: string, token = alice.userToken, address?: string): Promise<string[]> {
  const scope = address ? `&address=${encodeURIComponent(address)}` : '';
  const viaApi = await inbox(server, token, `${scope}&q=${encodeURIComponent(text)}`);
  const subjects = viaApi.list.map((m: { subject: string }) => m.subject);
  expect(viaApi.total).toBe(subjects.length);
  if (token === alice.userToken) {
    const viaIndex = await indexed.inbox(aliceAuth, { q: text, pageSize: 100, address });
    expect(
      viaIndex.list.map((m) => m.subject),
      `forced index for ${text}`,
    ).toEqual(subjects);
    expect(viaIndex.total).toBe(viaApi.total);
  }
  return subjects;
}

describe('text search', () => {
  it('matches Chinese text of two and of three or more characters in subject, sender and body', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, { subject: '三月发票通知', body: '请查收附件' });
    await deliver(box.address, { subject: '会议纪要', body: '附上本月的发票，请报销' });
    await deliver(box.address, {
      subject: '周报',
      fromName: '财务部发票组',
      fromAddress: 'fin@corp.example',
    });
    await deliver(box.address, { subject: '无关', body: '发货通知' });

    expect(await search('发票', alice.userToken, box.address)).toEqual(['周报', '会议纪要', '三月发票通知']);
    expect(await search('发票通知', alice.userToken, box.address)).toEqual(['三月发票通知']);
    expect(await search('本月的发票', alice.userToken, box.address)).toEqual(['会议纪要']);
    expect(await search('财务部', alice.userToken, box.address)).toEqual(['周报']);
    expect(await search('附件', alice.userToken, box.address)).toEqual(['三月发票通知']);
    expect(await search('通知', alice.userToken, box.address)).toEqual(['无关', '三月发票通知']);
  });

  it('ignores ASCII case and treats % _ " * \\ literally', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, { subject: 'Quarterly REPORT', fromAddress: 'Boss@Example.COM' });
    await deliver(box.address, { subject: 'Save 100% today' });
    await deliver(box.address, { subject: 'Save 1000 today' });
    await deliver(box.address, { subject: 'file_name.txt' });
    await deliver(box.address, { subject: 'fileXname.txt' });
    await deliver(box.address, { subject: 'he said "ship it" loudly' });
    await deliver(box.address, { subject: 'wild*card' });
    await deliver(box.address, { subject: 'wildcard' });
    await deliver(box.address, { subject: 'back\\slash' });
    await deliver(box.address, { subject: 'MATCH OR NEAR(x y)' });

    expect(await search('qUARTERLY report', alice.userToken, box.address)).toEqual(['Quarterly REPORT']);
    expect(await search('boss@example.com', alice.userToken, box.address)).toEqual(['Quarterly REPORT']);
    expect(await search('100%', alice.userToken, box.address)).toEqual(['Save 100% today']);
    expect(await search('0% t', alice.userToken, box.address)).toEqual(['Save 100% today']);
    expect(await search('e_n', alice.userToken, box.address)).toEqual(['file_name.txt']);
    expect(await search('"ship it"', alice.userToken, box.address)).toEqual(['he said "ship it" loudly']);
    expect(await search('"', alice.userToken, box.address)).toEqual(['he said "ship it" loudly']);
    expect(await search('d*c', alice.userToken, box.address)).toEqual(['wild*card']);
    expect(await search('wild*', alice.userToken, box.address)).toEqual(['wild*card']);
    expect(await search('k\\s', alice.userToken, box.address)).toEqual(['back\\slash']);
    // FTS5 query syntax in the text is only text.
    expect(await search('OR NEAR(', alice.userToken, box.address)).toEqual(['MATCH OR NEAR(x y)']);
    expect(await search('"" OR *', alice.userToken, box.address)).toEqual([]);
    expect(await search('%%%', alice.userToken, box.address)).toEqual([]);
    expect(await search('___', alice.userToken, box.address)).toEqual([]);
  });

  it('gives the same results as a scan for letters outside ASCII, whatever the engine folds', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, { subject: 'ÉCOLE Straße' });
    await deliver(box.address, { subject: 'école straße' });
    // search() itself compares the forced index with the default plan; today SQLite folds only
    // ASCII and PostgreSQL folds by its locale, and the index must not change either.
    const lower = await search('école', alice.userToken, box.address);
    expect(lower).toContain('école straße');
    expect(await search('STRASSE', alice.userToken, box.address)).toEqual([]);
  });

  it('searches across all of the caller’s mailboxes and never another user’s', async () => {
    const first = await createAddress(server, alice);
    const second = await createAddress(server, alice);
    const foreign = await createAddress(server, bob);
    const marker = `标记${Date.now().toString(36)}`;
    await deliver(first.address, { subject: `${marker} one` });
    await deliver(second.address, { subject: `${marker} two` });
    await deliver(foreign.address, { subject: `${marker} bob` });

    expect(await search(marker)).toEqual([`${marker} two`, `${marker} one`]);
    expect(await search(marker, alice.userToken, foreign.address)).toEqual([]);
    expect(await search(marker, bob.userToken)).toEqual([`${marker} bob`]);
    const viaIndex = await indexed.inbox(
      { sessionId: 0, role: 'user', accountId: bob.userId, mailboxId: null, name: 'bob' },
      { q: marker },
    );
    expect(viaIndex.list.map((m) => m.subject)).toEqual([`${marker} bob`]);
    // Paged and newest first, as without an index.
    const page2 = await indexed.inbox(aliceAuth, { q: marker, pageSize: 1, page: 2 });
    expect(page2.list.map((m) => m.subject)).toEqual([`${marker} one`]);
    expect(page2.total).toBe(2);
  });

  it('no longer finds a deleted message, nor the mail of a deleted address', async () => {
    const box = await createAddress(server, alice);
    const gone = await createAddress(server, alice);
    const marker = `删除${Date.now().toString(36)}`;
    await deliver(box.address, { subject: `${marker} keep` });
    await deliver(box.address, { subject: `${marker} drop` });
    await deliver(gone.address, { subject: `${marker} address` });
    expect(await search(marker)).toHaveLength(3);

    const drop = expectDefined(
      (await inbox(server, alice.userToken, `&address=${box.address}`)).list.find((m) =>
        m.subject.endsWith('drop'),
      ),
      'the message to drop',
    );
    await server.api('POST', 'user/delEmail', { token: alice.userToken, body: { ids: [drop.id] } });
    expect(await search(marker)).toEqual([`${marker} address`, `${marker} keep`]);
    await server.api('DELETE', `user/deleteEmail/${gone.id}`, { token: alice.userToken });
    expect(await search(marker)).toEqual([`${marker} keep`]);
  });
});

describe('two-character search (pairs index, migration 056)', () => {
  it('finds Chinese and ASCII pairs in every searched column, at either end, never across two columns', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, { subject: '结尾甲', fromName: '乙开头', body: '正文丙丁' });
    await deliver(box.address, { subject: 'Report Q4', fromAddress: 'Zeta.QX@corp.example' });
    await deliver(box.address, { subject: '一', body: '丁' });

    const scoped = (text: string) => search(text, alice.userToken, box.address);
    expect(await scoped('结尾')).toEqual(['结尾甲']);
    expect(await scoped('尾甲')).toEqual(['结尾甲']);
    expect(await scoped('乙开')).toEqual(['结尾甲']);
    expect(await scoped('丙丁')).toEqual(['结尾甲']);
    // The end of the subject and the start of the sender name are not adjacent text.
    expect(await scoped('甲乙')).toEqual([]);
    expect(await scoped('一丁')).toEqual([]);
    // ASCII case folds, on the address too (a prefix of it, or any part).
    expect(await scoped('q4')).toEqual(['Report Q4']);
    expect(await scoped('Q4')).toEqual(['Report Q4']);
    expect(await scoped('ze')).toEqual(['Report Q4']);
    expect(await scoped('x@')).toEqual(['Report Q4']);
    expect(await scoped('.q')).toEqual(['Report Q4']);
    // Wildcards and FTS5 syntax are text.
    expect(await scoped('%_')).toEqual([]);
    expect(await scoped('"*')).toEqual([]);
    expect(await scoped('邮编')).toEqual([]);
  });

  it('finds only the caller’s mail, in every plan, and pages it', async () => {
    const first = await createAddress(server, alice);
    const second = await createAddress(server, alice);
    const foreign = await createAddress(server, bob);
    // A pair of characters no other test sends.
    const pair = '鳐鲼';
    await deliver(first.address, { subject: `${pair} one` });
    await deliver(second.address, { subject: 'two', body: `正文${pair}` });
    await deliver(foreign.address, { subject: `${pair} bob` });

    expect(await search(pair)).toEqual(['two', `${pair} one`]);
    expect(await search(pair, alice.userToken, foreign.address)).toEqual([]);
    expect(await search(pair, bob.userToken)).toEqual([`${pair} bob`]);
    const bobAuth: AuthContext = {
      sessionId: 0,
      role: 'user',
      accountId: bob.userId,
      mailboxId: null,
      name: 'bob',
    };
    expect((await indexed.inbox(bobAuth, { q: pair })).list.map((m) => m.subject)).toEqual([`${pair} bob`]);
    const page2 = await indexed.inbox(aliceAuth, { q: pair, pageSize: 1, page: 2 });
    expect(page2.list.map((m) => m.subject)).toEqual([`${pair} one`]);
    expect(page2.total).toBe(2);
  });
});

describe.runIf(testEngine === 'sqlite')('SQLite pairs index', () => {
  async function pairIds(text: string): Promise<number[]> {
    const { rows } = await sql<{ rowid: number }>`select rowid from messages_bigrams
      where messages_bigrams match ${bigramQuery(text)} order by rowid`.execute(server.app.database.db);
    return rows.map((row) => row.rowid);
  }

  it('follows inserts, updates (queued, then indexed anew), deletes and cascades', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, { subject: '鲸鲨 first' });
    const { db } = server.app.database;
    const row = await db
      .selectFrom('messages')
      .select('id')
      .where('mailbox_id', '=', box.id)
      .executeTakeFirstOrThrow();
    expect(await pairIds('鲸鲨')).toEqual([row.id]);

    await db.updateTable('messages').set({ subject: '鳕鲈 renamed' }).where('id', '=', row.id).execute();
    expect(await pairIds('鲸鲨')).toEqual([]);
    // Until the store worker indexes it anew, the message is a candidate of every pair search.
    expect(await search('鳕鲈', alice.userToken, box.address)).toEqual(['鳕鲈 renamed']);
    expect(await search('鲸鲨', alice.userToken, box.address)).toEqual([]);
    await waitFor(async () => (await pairIds('鳕鲈')).includes(row.id), {
      what: 'the pair to be indexed anew',
    });
    const { rows } = await sql<{ n: number }>`select count(*) as n from search_bigram_pending`.execute(db);
    expect(Number(rows[0]?.n)).toBe(0);

    await db.deleteFrom('mailboxes').where('id', '=', box.id).execute();
    expect(await pairIds('鳕鲈')).toEqual([]);
  });

  it('answers forced-index searches from the index itself, a text found nowhere without a candidate', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, { subject: '鳟鲑 here' });
    const [id] = await pairIds('鳟鲑');
    expect(id).toBeDefined();
    await sql`delete from messages_bigrams where rowid = ${id}`.execute(server.app.database.db);
    expect((await indexed.inbox(aliceAuth, { q: '鳟鲑' })).total).toBe(0);
    // The default plan asks the index first too when a text is that rare: no candidate, no match,
    // though the message is there.
    expect((await inbox(server, alice.userToken, `&q=${encodeURIComponent('鳟鲑')}`)).total).toBe(0);
    expect((await inbox(server, alice.userToken, `&address=${box.address}`)).total).toBe(1);
  });

  it('is rebuilt by the migration from the mail already indexed', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, { subject: '鲤鲫 before' });
    const { db } = server.app.database;
    await sql`delete from messages_bigrams`.execute(db);
    expect(await pairIds('鲤鲫')).toEqual([]);
    await bigramMigration.up(db as unknown as Kysely<unknown>, 'sqlite');
    expect(await pairIds('鲤鲫')).toHaveLength(1);
    expect(await search('鲤鲫', alice.userToken, box.address)).toEqual(['鲤鲫 before']);
  });
});

describe.runIf(testEngine === 'postgres')('PostgreSQL pairs index', () => {
  it('answers a two-character LIKE from the GIN index of pairs', async () => {
    const box = await createAddress(server, alice);
    for (let i = 0; i < 5; i++) await deliver(box.address, { subject: `普通邮件 ${i}` });
    await deliver(box.address, { subject: '鲟鳇通知' });
    const plan = await server.app.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (analyze, format json)
        select id from messages where youju_bigrams(lower(subject), lower(from_name),
          lower(from_address), lower(text_body)) @> array[${'鲟鳇'}]::text[]`.execute(trx);
      return JSON.stringify(rows[0]?.['QUERY PLAN']);
    });
    const scan =
      /"Node Type":"Bitmap Index Scan"[^}]*"Index Name":"messages_search_bigrams"[^}]*"Actual Rows":(\d+)/.exec(
        plan,
      );
    expect(scan, plan).not.toBeNull();
    expect(Number(scan?.[1])).toBe(1);
    expect(await search('鲟鳇', alice.userToken, box.address)).toEqual(['鲟鳇通知']);
  });
});

describe.runIf(testEngine === 'sqlite')('SQLite trigram index', () => {
  /**
   * Rowids the FTS5 table finds for the text: those holding each of its trigrams (the index keeps
   * no positions, migration 048).
   */
  async function indexedIds(text: string): Promise<number[]> {
    const characters = [...text];
    const query = characters
      .slice(2)
      .map((_, i) => `"${characters.slice(i, i + 3).join('')}"`)
      .join(' AND ');
    const { rows } = await sql<{ rowid: number }>`select rowid from messages_search
      where messages_search match ${query} order by rowid`.execute(server.app.database.db);
    return rows.map((row) => row.rowid);
  }

  it('follows inserts, updates and deletes of messages, cascades included', async () => {
    const box = await createAddress(server, alice);
    const marker = `同步${Date.now().toString(36)}`;
    await deliver(box.address, { subject: `${marker} first` });
    const { db } = server.app.database;
    const row = await db
      .selectFrom('messages')
      .select('id')
      .where('mailbox_id', '=', box.id)
      .executeTakeFirstOrThrow();
    expect(await indexedIds(marker)).toEqual([row.id]);

    await db.updateTable('messages').set({ subject: 'renamed' }).where('id', '=', row.id).execute();
    expect(await indexedIds(marker)).toEqual([]);
    expect(await indexedIds('renamed')).toContain(row.id);
    await db.updateTable('messages').set({ read: 1 }).where('id', '=', row.id).execute();
    expect(await indexedIds('renamed')).toContain(row.id);

    // Deleting the mailbox row cascades to its messages; the trigger sees those deletes too.
    await db.deleteFrom('mailboxes').where('id', '=', box.id).execute();
    expect(await indexedIds('renamed')).not.toContain(row.id);
  });

  it('answers forced-index searches from the index itself', async () => {
    const box = await createAddress(server, alice);
    const marker = `索引${Date.now().toString(36)}`;
    await deliver(box.address, { subject: `${marker} here` });
    const [id] = await indexedIds(marker);
    // Taking the row out of the index (never done outside this test) hides it from the index
    // plans: proof that they read the index (the default one asks it first for a rare text).
    await sql`delete from messages_search where rowid = ${id}`.execute(server.app.database.db);
    expect((await indexed.inbox(aliceAuth, { q: marker })).total).toBe(0);
    expect((await inbox(server, alice.userToken, `&q=${encodeURIComponent(marker)}`)).total).toBe(0);
    expect((await inbox(server, alice.userToken, `&address=${box.address}`)).total).toBe(1);
  });
});

describe.runIf(testEngine === 'postgres')('PostgreSQL trigram indexes', () => {
  it('answer a Chinese three-character LIKE from the index, reading only matching rows', async () => {
    const box = await createAddress(server, alice);
    for (let i = 0; i < 5; i++) await deliver(box.address, { subject: `普通邮件 ${i}` });
    await deliver(box.address, { subject: '年终奖金通知' });
    const plan = await server.app.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (analyze, format json)
        select id from messages where lower(subject) like ${'%终奖金%'} escape '\\'`.execute(trx);
      return JSON.stringify(rows[0]?.['QUERY PLAN']);
    });
    const scan =
      /"Node Type":"Bitmap Index Scan"[^}]*"Index Name":"messages_search_subject"[^}]*"Actual Rows":(\d+)/.exec(
        plan,
      );
    expect(scan, plan).not.toBeNull();
    // pg_trgm extracted trigrams from the Chinese text (under the cluster's locale), so the index
    // returned the one matching row instead of every row.
    expect(Number(scan?.[1])).toBe(1);
  });
});

describe('unread counts', () => {
  async function unread(
    token = alice.userToken,
  ): Promise<{ total: number; byAddress: Record<string, number> }> {
    const { body } = await server.api('GET', 'user/getUnreadEmail', { token });
    expectOk(body);
    return body.data;
  }

  async function listed(address: string): Promise<number | undefined> {
    const { body } = await server.api('GET', 'user/emailList', { token: alice.userToken });
    return body.data?.find((a) => a.address === address)?.unread;
  }

  it('stay exact after receive, read, unread and delete, and count only the caller’s mail', async () => {
    const before = await unread();
    const bobBefore = await unread(bob.userToken);
    const box = await createAddress(server, alice);
    const foreign = await createAddress(server, bob);
    for (const subject of ['a', 'b', 'c', 'd']) await deliver(box.address, { subject });
    await deliver(foreign.address, { subject: 'for bob' });

    const expectCount = async (count: number) => {
      const now = await unread();
      expect(now.byAddress[box.address]).toBe(count === 0 ? undefined : count);
      expect(now.total).toBe(before.total + count);
      expect(now.byAddress[foreign.address]).toBeUndefined();
      expect(await listed(box.address)).toBe(count);
    };
    await expectCount(4);
    expect((await unread(bob.userToken)).byAddress[foreign.address]).toBe(1);
    expect((await unread(bob.userToken)).total).toBe(bobBefore.total + 1);

    const list = (await inbox(server, alice.userToken, `&address=${box.address}`)).list as { id: number }[];
    const [d, c, b, a] = list.map((m) => m.id);
    await server.api('GET', `user/getEmail?id=${d}`, { token: alice.userToken });
    await expectCount(3);
    await server.api('POST', 'user/setReadEmail', { token: alice.userToken, body: { ids: [c, b] } });
    await expectCount(1);
    await server.api('POST', 'user/setReadEmail', {
      token: alice.userToken,
      body: { ids: [c], read: false },
    });
    await expectCount(2);
    // Bob can neither read nor delete Alice's mail.
    await server.api('POST', 'user/setReadEmail', { token: bob.userToken, body: { ids: [a] } });
    await server.api('POST', 'user/delEmail', { token: bob.userToken, body: { ids: [a] } });
    await expectCount(2);
    await server.api('POST', 'user/delEmail', { token: alice.userToken, body: { ids: [a, d] } });
    await expectCount(1);
    await server.api('POST', 'user/deleteEmailsInTimeRange', {
      token: alice.userToken,
      body: { start: 0, end: Date.now() + 1000, address: box.address },
    });
    await expectCount(0);
    expect((await unread(bob.userToken)).byAddress[foreign.address]).toBe(1);
  });
});

describe('retention purge', () => {
  // Last in this file: it deletes all of the mail the tests above delivered.
  it('takes purged mail out of the search indexes', async () => {
    const box = await createAddress(server, alice);
    await deliver(box.address, { subject: '鳙鲢 old', body: 'purged soon' });
    expect(await search('鳙鲢', alice.userToken, box.address)).toEqual(['鳙鲢 old']);
    await server.app.services.mail.purge(Date.now() + 100 * 365 * 86_400_000);
    expect(await search('鳙鲢', alice.userToken, box.address)).toEqual([]);
    expect(await search('purged', alice.userToken, box.address)).toEqual([]);
    if (testEngine === 'sqlite') {
      const { rows } = await sql<{ n: number }>`select count(*) as n from messages_bigrams
        where messages_bigrams match ${bigramQuery('鳙鲢')}`.execute(server.app.database.db);
      expect(Number(rows[0]?.n)).toBe(0);
    }
  });
});
