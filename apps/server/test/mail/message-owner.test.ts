import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScopeSizes,
  insertMessages,
  listInboxPage,
  type SearchTuning,
  searchInboxPage,
} from '../../src/db/repositories/message-repo.js';
import { createAddress, createUserWithDomain, type MailWorld } from '../support/fixtures.js';
import { startTestServer, type TestServer, testEngine } from '../support/test-server.js';

/**
 * The owner of each message's mailbox, kept on the message (migration 059) for the listing of all
 * of an owner's addresses: it must be right however a row is written, or mail would go missing
 * from getInbox (or show up in another owner's).
 */

let server: TestServer;
let alice: MailWorld;
let bob: MailWorld;
let aliceBox: { id: number; address: string };
let bobBox: { id: number; address: string };
let rawId: number;

function row(mailboxId: number, subject: string, receivedAt: number) {
  return {
    mailbox_id: mailboxId,
    raw_id: rawId,
    envelope_from: 'sender@mail.example',
    from_name: '',
    from_address: 'sender@mail.example',
    subject,
    snippet: subject,
    text_body: subject,
    html_body: null,
    to_json: '[]',
    cc_json: '[]',
    attachments_json: '[]',
    message_id: '',
    sent_at: null,
    received_at: receivedAt,
    size: 10,
    read: 0,
    starred: 0,
    spam: 0,
    has_attachments: 0,
    parse_error: null,
  };
}

async function ownerOf(id: number): Promise<number | null> {
  const { rows } = await sql<{
    owner_id: number | null;
  }>`select owner_id from messages where id = ${id}`.execute(server.app.database.db);
  return rows[0]?.owner_id ?? null;
}

async function subjectsOf(world: MailWorld): Promise<string[]> {
  const { rows } = await listInboxPage(
    server.app.database.db,
    { kind: 'owner', ownerId: world.userId },
    { folder: 'inbox' },
    { limit: 50, offset: 0 },
  );
  return rows.map((item) => item.subject);
}

/** The search's plans: as configured, and one that only scans (newest first, by the owner's index). */
const SEARCH_PLANS: Record<string, SearchTuning | undefined> = {
  'as configured': undefined,
  'scan only': { smallScope: Number.MAX_SAFE_INTEGER, scanToIndexRatio: 1, candidateLimit: 0 },
};

/** Subjects of the owner's inbox that contain `text`, under each plan (which must agree), and the total. */
async function searchedBy(world: MailWorld, text: string): Promise<{ subjects: string[]; total: number }> {
  const { db, engine } = server.app.database;
  const answers = [];
  for (const tuning of Object.values(SEARCH_PLANS)) {
    const { rows, total } = await searchInboxPage(
      db,
      engine,
      { kind: 'owner', ownerId: world.userId },
      { folder: 'inbox' },
      text,
      { limit: 50, offset: 0 },
      tuning,
      createScopeSizes(),
    );
    answers.push({ subjects: rows.map((item) => item.subject), total });
  }
  expect(answers[1]).toEqual(answers[0]);
  return answers[0] as { subjects: string[]; total: number };
}

beforeAll(async () => {
  server = await startTestServer();
  alice = await createUserWithDomain(server, 'owner-a');
  bob = await createUserWithDomain(server, 'owner-b');
  aliceBox = await createAddress(server, alice);
  bobBox = await createAddress(server, bob);
  const raw = await server.app.database.db
    .insertInto('raw_messages')
    .values({ size: 10, sha256: 'owner', created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  rawId = raw.id;
});

afterAll(async () => {
  await server?.close();
});

describe(`the owner on each message (${testEngine})`, () => {
  it('is written by insertMessages from the mailbox, whatever a copied row says', async () => {
    const now = Date.now();
    const [first, second] = await insertMessages(server.app.database.db, [
      row(aliceBox.id, 'a-stored', now),
      // A copy of another owner's row must not carry that owner along (IMAP COPY spreads rows).
      { ...row(bobBox.id, 'b-stored', now), owner_id: alice.userId } as never,
    ]);
    expect(await ownerOf(first as number)).toBe(alice.userId);
    expect(await ownerOf(second as number)).toBe(bob.userId);
  });

  it('is filled in by the database for a row inserted without it', async () => {
    const inserted = await server.app.database.db
      .insertInto('messages')
      .values({ ...row(bobBox.id, 'b-direct', Date.now() + 1), uid: 1_000_000 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await ownerOf(inserted.id)).toBe(bob.userId);
  });

  it('lists each owner’s mail and only theirs', async () => {
    expect(await subjectsOf(alice)).toEqual(['a-stored']);
    expect(await subjectsOf(bob)).toEqual(['b-direct', 'b-stored']);
  });

  it('follows a mailbox that changes owner', async () => {
    const { db } = server.app.database;
    await db.updateTable('mailboxes').set({ owner_id: alice.userId }).where('id', '=', bobBox.id).execute();
    try {
      expect(await subjectsOf(bob)).toEqual([]);
      expect(await subjectsOf(alice)).toEqual(['b-direct', 'b-stored', 'a-stored']);
      // The search of all of an owner's mail reads the owner on the message too.
      expect(await searchedBy(bob, 'stored')).toEqual({ subjects: [], total: 0 });
      expect(await searchedBy(alice, 'stored')).toEqual({ subjects: ['b-stored', 'a-stored'], total: 2 });
    } finally {
      await db.updateTable('mailboxes').set({ owner_id: bob.userId }).where('id', '=', bobBox.id).execute();
    }
    expect(await subjectsOf(bob)).toEqual(['b-direct', 'b-stored']);
    expect(await searchedBy(bob, 'b-')).toEqual({ subjects: ['b-direct', 'b-stored'], total: 2 });
    expect(await searchedBy(alice, 'b-')).toEqual({ subjects: [], total: 0 });
    expect(await searchedBy(alice, 'stored')).toEqual({ subjects: ['a-stored'], total: 1 });
  });

  it('lists the owner’s page from the owner index', async () => {
    if (testEngine !== 'sqlite') return;
    const { rows } = await sql<{ detail: string }>`explain query plan
      select id from messages where owner_id = ${alice.userId} and folder = 'inbox'
      order by received_at desc, id desc limit 20`.execute(server.app.database.db);
    expect(rows.map((r) => r.detail).join(' | ')).toContain('messages_owner_folder_received');
  });
});
