import type { InboxQuery } from '@youju/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_TUNING } from '../../src/db/repositories/message-repo.js';
import { indexNewMessages } from '../../src/db/search-index.js';
import { createMailService, type MailService } from '../../src/modules/mail/mail-service.js';
import type { AuthContext } from '../../src/modules/sessions/session-service.js';
import { createAddress, createUserWithDomain } from '../support/fixtures.js';
import { startTestServer, type TestServer, testEngine } from '../support/test-server.js';

/**
 * getInbox pages on a store large enough for every plan the inbox has: pages chosen by id from the
 * indexes, the text search scanning newest first in slices of time, and the trigram indexes.
 * Whatever runs, each page must hold exactly the rows a plain scan of every message gives, in the
 * same order; `total` is exact but for a search that stopped reading before the end, whose
 * estimate must still let the pager reach every match.
 */

let server: TestServer;
let owner: { auth: AuthContext; id: number; addresses: string[] };
let neighbour: { auth: AuthContext; id: number };
const admin: AuthContext = { sessionId: 0, role: 'admin', accountId: null, mailboxId: null, name: 'admin' };
/**
 * The service as the server runs it, one that only scans, one that always takes the index, one
 * that estimates the size of any scope over 100 messages (PostgreSQL; SQLite counts them), and one
 * that goes from a short scan to all of the index's candidates (SQLite).
 */
let plans: Record<
  'as configured' | 'scan only' | 'index at once' | 'estimated size' | 'scan, then all candidates',
  MailService
>;

const OWNER_MESSAGES = 2_400;
const NEIGHBOUR_MESSAGES = 600;
/** The newest messages of the owner arrive at one instant (a burst), older ones three at a time. */
const BURST = 150;
const PAGE_SIZE = 20;
const MINUTE = 60_000;
/**
 * Three days ago, on a whole minute: recent enough that the retention purge, which first runs a
 * minute after the server starts, never takes this mail while a slow run is still reading it.
 */
const START = Math.floor((Date.now() - 3 * 24 * 60 * MINUTE) / MINUTE) * MINUTE;

/** The columns of the i-th message: words at several frequencies and in several cases. */
function mail(i: number) {
  let subject = `通知 ${i}`;
  if (i % 9 === 0) subject = `发票 ${i}`;
  else if (i % 13 === 0) subject = `INVOICE No. ${i}`;
  else if (i % 17 === 0) subject = `Invoice ${i}`;
  let body: string | null = `正文 ${i}，100% off_sale`;
  if (i % 31 === 0) body = 'Bitte Straße prüfen, ÉCOLE';
  else if (i % 37 === 0) body = null;
  else if (i === 1234) body = '稀有词 只此一封';
  return {
    envelope_from: 'sender@mail.example',
    from_name: i % 23 === 0 ? '财务部发票组' : `Sender ${i % 50}`,
    from_address: i % 29 === 0 ? 'Billing@Corp.Example' : `s${i % 50}@mail.example`,
    subject,
    snippet: subject,
    text_body: body,
    html_body: null,
    to_json: '[]',
    cc_json: '[]',
    attachments_json: '[]',
    message_id: '',
    sent_at: null,
    read: i % 3 === 0 ? 0 : 1,
    starred: i % 10 === 0 ? 1 : 0,
    spam: 0,
    has_attachments: 0,
    parse_error: null,
  };
}

/** Writes the messages straight into the table (as the benches do), in an order unlike time's. */
async function store(mailboxIds: number[], count: number, receivedAt: (i: number) => number): Promise<void> {
  const { db } = server.app.database;
  const raw = await db
    .insertInto('raw_messages')
    .values({ size: 100, sha256: 'paging', created_at: START })
    .returning('id')
    .executeTakeFirstOrThrow();
  const order = Array.from({ length: count }, (_, i) => (i * 7919) % count);
  for (let from = 0; from < count; from += 200) {
    await db
      .insertInto('messages')
      .values(
        order.slice(from, from + 200).map((i) => ({
          mailbox_id: mailboxIds[(i * 31) % mailboxIds.length] as number,
          raw_id: raw.id,
          received_at: receivedAt(i),
          size: 100,
          // Written straight into the table: unique UIDs per mailbox inbox (folder-repo.ts takes
          // the next one from the highest).
          uid: i + 1,
          ...mail(i),
        })),
      )
      .execute();
  }
}

beforeAll(async () => {
  server = await startTestServer();
  const world = await createUserWithDomain(server, 'pager');
  const boxes = [
    await createAddress(server, world),
    await createAddress(server, world),
    await createAddress(server, world),
  ];
  const other = await createUserWithDomain(server, 'neighbour');
  const otherBox = await createAddress(server, other);
  const auth = (id: number, name: string): AuthContext => ({
    sessionId: 0,
    role: 'user',
    accountId: id,
    mailboxId: null,
    name,
  });
  owner = { auth: auth(world.userId, 'pager'), id: world.userId, addresses: boxes.map((b) => b.address) };
  neighbour = { auth: auth(other.userId, 'neighbour'), id: other.userId };
  const newest = START + (OWNER_MESSAGES / 3) * MINUTE;
  await store(
    boxes.map((b) => b.id),
    OWNER_MESSAGES,
    (i) => (i >= OWNER_MESSAGES - BURST ? newest : START + Math.floor(i / 3) * MINUTE),
  );
  // The neighbour's mail falls between the owner's, with the same words.
  await store([otherBox.id], NEIGHBOUR_MESSAGES, (i) => START + i * 4 * MINUTE + 30_000);

  const { db, engine } = server.app.database;
  const { settings } = server.app.services;
  plans = {
    'as configured': server.app.services.mail,
    'scan only': createMailService(db, engine, settings, {
      searchTuning: { smallScope: Number.MAX_SAFE_INTEGER, scanToIndexRatio: 1, candidateLimit: 0 },
    }),
    'index at once': createMailService(db, engine, settings, {
      searchTuning: { smallScope: 0, scanToIndexRatio: 0, candidateLimit: Number.MAX_SAFE_INTEGER },
    }),
    'estimated size': createMailService(db, engine, settings, {
      searchTuning: { ...DEFAULT_SEARCH_TUNING, countedScope: 100 },
    }),
    // SQLite: a probe of 20 candidates, a scan that gives up past 20 messages, never a capped list
    // of candidates (one per 1,000 messages of the scope): whenever the newest messages held less
    // than a page, the scope's ids are looked up among all of the index's candidates.
    'scan, then all candidates': createMailService(db, engine, settings, {
      searchTuning: { smallScope: 20, scanToIndexRatio: 1_000, candidateLimit: 10_000 },
    }),
  };
});
afterAll(async () => server.close());

type Filters = Pick<InboxQuery, 'address' | 'unread' | 'starred'>;

/** Ids of the messages of `ownerId` (null: everyone's) that pass `filters` and contain `text`, newest first. */
async function plainScan(ownerId: number | null, filters: Filters, text?: string): Promise<number[]> {
  let query = server.app.database.db
    .selectFrom('messages')
    .innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
    .select('messages.id');
  if (ownerId !== null) query = query.where('mailboxes.owner_id', '=', ownerId);
  if (filters.address) query = query.where('mailboxes.address', '=', filters.address);
  if (filters.unread !== undefined) query = query.where('messages.read', '=', filters.unread ? 0 : 1);
  if (filters.starred !== undefined) query = query.where('messages.starred', '=', filters.starred ? 1 : 0);
  if (text !== undefined) {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or(
        (['subject', 'from_name', 'from_address', 'text_body'] as const).map(
          (column) => sql<boolean>`lower(${eb.ref(`messages.${column}`)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  const rows = await query.orderBy('messages.received_at', 'desc').orderBy('messages.id', 'desc').execute();
  return rows.map((row) => row.id);
}

/**
 * Page `query.page` of `expected` as `mail` answers it: the rows exactly; `total` exact, or for a
 * search an estimate above the page and at most `scopeSize`.
 */
async function expectPage(
  mail: MailService,
  auth: AuthContext,
  query: InboxQuery,
  expected: number[],
  scopeSize: number,
  plan = 'as configured',
): Promise<{ ids: number[]; total: number }> {
  const page = query.page ?? 1;
  const offset = (page - 1) * PAGE_SIZE;
  const label = `${plan}: ${JSON.stringify(query)}`;
  const result = await mail.inbox(auth, { ...query, pageSize: PAGE_SIZE });
  const ids = result.list.map((item) => item.id);
  expect(ids, label).toEqual(expected.slice(offset, offset + PAGE_SIZE));
  if (query.q === undefined || ids.length < PAGE_SIZE || result.total === expected.length) {
    expect(result.total, label).toBe(expected.length);
  } else {
    expect(result.total, label).toBeGreaterThan(offset + PAGE_SIZE);
    expect(result.total, label).toBeLessThanOrEqual(scopeSize);
  }
  return { ids, total: result.total };
}

const FILTERS: Filters[] = [{}, { unread: true }, { starred: true }, { unread: false, starred: true }];

describe('getInbox pages', () => {
  it('are the plain scan’s, ties broken by id, with exact totals, for every filter', async () => {
    for (const query of [...FILTERS, { address: owner.addresses[1] }]) {
      const expected = await plainScan(owner.id, query);
      const lastPage = Math.ceil(expected.length / PAGE_SIZE);
      for (const page of [1, 2, 8, lastPage, lastPage + 1]) {
        await expectPage(server.app.services.mail, owner.auth, { ...query, page }, expected, expected.length);
      }
    }
    // The burst: the newest BURST messages share one instant, so page 1 is ordered by id alone.
    const first = await server.app.services.mail.inbox(owner.auth, { pageSize: PAGE_SIZE });
    expect(new Set(first.list.map((item) => item.receivedAt)).size).toBe(1);
  });

  it('reach the same rows for a mailbox session, another owner and the administrator', async () => {
    const { db } = server.app.database;
    const box = await db
      .selectFrom('mailboxes')
      .select('id')
      .where('address', '=', owner.addresses[2] as string)
      .executeTakeFirstOrThrow();
    const session: AuthContext = { ...owner.auth, role: 'mailbox', accountId: null, mailboxId: box.id };
    const ofBox = await plainScan(owner.id, { address: owner.addresses[2] });
    const everyone = await plainScan(null, {});
    const theirs = await plainScan(neighbour.id, {});
    for (const page of [1, 3]) {
      await expectPage(server.app.services.mail, session, { page }, ofBox, ofBox.length);
      await expectPage(server.app.services.mail, admin, { page }, everyone, everyone.length);
      await expectPage(server.app.services.mail, neighbour.auth, { page }, theirs, theirs.length);
    }
    const unread = await plainScan(null, { unread: true });
    await expectPage(server.app.services.mail, admin, { unread: true }, unread, unread.length);
  });
});

describe('getInbox text search', () => {
  const TEXTS = [
    '发票', // 2 characters, common
    'invoice', // ASCII, in several cases in the mail
    'INVOICE NO',
    '稀有词', // in one message
    '财务部',
    'billing@corp',
    'straße', // SQLite folds ASCII only, PostgreSQL by its locale: the scan decides either way
    'ÉCOLE',
    '100%',
    'f_s',
    'x', // one character
    '不存在的词',
  ];

  it('gives the plain scan’s rows on every page, whichever plan runs', async () => {
    for (const [name, mail] of Object.entries(plans)) {
      for (const text of TEXTS) {
        for (const filters of FILTERS) {
          const expected = await plainScan(owner.id, filters, text);
          // The planner's estimate of the scope's size may be above it.
          const bound = (await plainScan(owner.id, filters)).length * (name === 'estimated size' ? 2 : 1);
          for (const page of [1, 2, 6]) {
            await expectPage(mail, owner.auth, { ...filters, q: text, page }, expected, bound, name);
          }
        }
      }
    }
  });

  it('lets the pager reach every match and ends on an exact total', async () => {
    for (const [name, mail] of Object.entries(plans)) {
      for (const text of ['发票', 'invoice', 'x']) {
        const expected = await plainScan(owner.id, {}, text);
        const seen: number[] = [];
        let page = 1;
        for (;;) {
          const query = { q: text, page };
          const bound = OWNER_MESSAGES * 2;
          const { ids, total } = await expectPage(mail, owner.auth, query, expected, bound, name);
          seen.push(...ids);
          // The web client offers pages up to ceil(total / pageSize).
          if (ids.length < PAGE_SIZE || page * PAGE_SIZE >= total) {
            expect(total).toBe(expected.length);
            break;
          }
          page++;
        }
        expect(seen).toEqual(expected);
      }
    }
  });

  it('estimates the total of a common word from the newest messages it read', async () => {
    const expected = await plainScan(owner.id, {}, '发票');
    const { total } = await server.app.services.mail.inbox(owner.auth, { q: '发票', pageSize: PAGE_SIZE });
    expect(total).toBeGreaterThan(expected.length / 1.5);
    expect(total).toBeLessThan(expected.length * 1.5);
    // A mailbox small enough to be read whole gets the exact count.
    const few = await plainScan(neighbour.id, { unread: true }, '发票');
    const small = await server.app.services.mail.inbox(neighbour.auth, {
      q: '发票',
      unread: true,
      pageSize: 100,
    });
    expect(small.total).toBe(few.length);
  });

  it('searches one address, and a mailbox session, the same way (slices read with their matches)', async () => {
    const { db } = server.app.database;
    const address = owner.addresses[1] as string;
    const box = await db
      .selectFrom('mailboxes')
      .select('id')
      .where('address', '=', address)
      .executeTakeFirstOrThrow();
    const session: AuthContext = { ...owner.auth, role: 'mailbox', accountId: null, mailboxId: box.id };
    const ofBox = (await plainScan(owner.id, { address })).length;
    // The mail was written straight into the table: on SQLite it enters the FTS5 indexes with the
    // store worker's next batch. Indexed, the plans read candidates from them (unindexed, every
    // newer message is a candidate).
    if (testEngine === 'sqlite') {
      while ((await indexNewMessages(db)) > 0) {
        // index everything written so far, batch by batch
      }
    }
    // 800 messages: more than the first slice, so the scan goes on in slices or gives up for
    // the index; "发票" is common, 'Straße' rare in the address but in many messages elsewhere.
    for (const text of ['发票', 'invoice', '稀有词', 'straße', 'x', '不存在的词']) {
      for (const filters of [{ address }, { address, unread: true }]) {
        const expected = await plainScan(owner.id, filters, text);
        const bound = (await plainScan(owner.id, filters)).length * 2;
        for (const [name, mail] of Object.entries(plans)) {
          for (const page of [1, 2, 6]) {
            await expectPage(mail, owner.auth, { ...filters, q: text, page }, expected, bound, name);
          }
        }
      }
      const expected = await plainScan(owner.id, { address }, text);
      for (const page of [1, 3]) {
        await expectPage(server.app.services.mail, session, { q: text, page }, expected, ofBox);
      }
    }
  });

  it('searches the administrator’s whole store the same way', async () => {
    for (const text of ['发票', '稀有词', 'invoice']) {
      const expected = await plainScan(null, {}, text);
      const everyone = (await plainScan(null, {})).length;
      for (const page of [1, 4]) {
        await expectPage(server.app.services.mail, admin, { q: text, page }, expected, everyone);
      }
    }
  });
});

describe.runIf(testEngine === 'sqlite')('the trigram index and mail it has not indexed yet', () => {
  it('finds the same rows whether or not new mail is indexed yet', async () => {
    const mail = plans['index at once'];
    const check = async () => {
      for (const text of ['稀有词', 'invoice', 'billing@corp']) {
        const expected = await plainScan(owner.id, {}, text);
        await expectPage(mail, owner.auth, { q: text }, expected, OWNER_MESSAGES);
      }
    };
    // The store worker indexes new mail a few times a second: some may be indexed by now.
    await check();
    while ((await indexNewMessages(server.app.database.db)) > 0) {
      // index everything written so far, batch by batch
    }
    await check();
  });
});
