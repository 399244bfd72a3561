import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../src/lib/time.js';
import { settled } from '../sending/sending-helpers.js';
import { expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

let server: TestServer;
let admin: string;
let alice: MailWorld;
let bob: MailWorld;

/** The local calendar date of a moment, as the dashboard names days. */
function localDate(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

async function deliver(to: string, subject: string): Promise<number> {
  const result = await sendMail(server.smtpPort, { to: [to], content: simpleMessage(to, subject, subject) });
  expect(result.data?.code).toBe(250);
  const row = await server.app.database.db
    .selectFrom('messages')
    .innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
    .select('messages.id')
    .where('mailboxes.address', '=', to)
    .where('messages.subject', '=', subject)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function dashboard(token: string) {
  const { status, body } = await server.api('GET', 'user/getDashboard', { token });
  expect(status).toBe(200);
  expectOk(body);
  return body.data;
}

/** What the test itself did, per owner: the figures the dashboard must reproduce. */
interface Expected {
  receivedToday: number;
  received30d: number;
  sentToday: number;
  sent30d: number;
  addresses: number;
  mailboxes: number;
  domains: number;
  deliveryFailures: number;
  spam: number;
  threeDaysAgo: number;
}

/** An owner's figures before the test does anything: nothing but the domain of its world. */
const atStart = (): Expected => ({
  receivedToday: 0,
  received30d: 0,
  sentToday: 0,
  sent30d: 0,
  addresses: 0,
  mailboxes: 0,
  domains: 1,
  deliveryFailures: 0,
  spam: 0,
  threeDaysAgo: 0,
});

const expected: Record<'alice' | 'bob', Expected> = { alice: atStart(), bob: atStart() };

beforeAll(async () => {
  ({ server, admin } = await startTestServerAsAdmin());
  // Keep the 40-day-old message of this test away from the retention purge.
  await server.api('POST', 'user/updateSetting', { token: admin, body: { system: { retentionDays: 365 } } });
  alice = await createUserWithDomain(server, 'dashalice');
  bob = await createUserWithDomain(server, 'dashbob');

  const aliceFirst = await createAddress(server, alice, 'first');
  const aliceSecond = await createAddress(server, alice, 'second');
  expected.alice.addresses = 2;
  const aliceBox = await server.api('POST', 'regEmail', {
    body: { domainId: alice.domainId, localPart: 'account', password: 'mailbox-pw-1' },
  });
  expectOk(aliceBox.body);
  expected.alice.mailboxes = 1;
  const bobAddress = await createAddress(server, bob, 'only');
  expected.bob.addresses = 1;

  // Alice receives five messages over SMTP; two move to three days ago, one to forty days ago.
  const aliceIds = [];
  for (let index = 0; index < 3; index++) aliceIds.push(await deliver(aliceFirst.address, `甲${index}`));
  for (let index = 0; index < 2; index++) aliceIds.push(await deliver(aliceSecond.address, `乙${index}`));
  const db = server.app.database.db;
  const now = Date.now();
  await db
    .updateTable('messages')
    .set({ received_at: now - 3 * DAY })
    .where('id', 'in', aliceIds.slice(0, 2))
    .execute();
  await db
    .updateTable('messages')
    .set({ received_at: now - 40 * DAY })
    .where('id', '=', aliceIds[2] as number)
    .execute();
  expected.alice.receivedToday = 2;
  expected.alice.received30d = 4;
  expected.alice.threeDaysAgo = 2;
  const spam = await server.api('POST', 'user/updateEmail', {
    token: alice.userToken,
    body: { id: aliceIds[3], spam: true },
  });
  expectOk(spam.body);
  expected.alice.spam = 1;

  // Bob receives four over SMTP.
  for (let index = 0; index < 4; index++) await deliver(bobAddress.address, `丙${index}`);
  expected.bob.receivedToday = 4;
  expected.bob.received30d = 4;

  // Alice sends two messages to Bob (delivered through the local store) and one to nobody (fails).
  for (const [to, subject] of [
    [bobAddress.address, '问候一'],
    [bobAddress.address, '问候二'],
    [`nobody@${alice.domain}`, '退信'],
  ] as const) {
    const sent = await server.api('POST', 'user/sendEmail', {
      token: alice.userToken,
      body: { from: aliceFirst.address, to: [to], subject, text: subject },
    });
    expectOk(sent.body);
    await settled(server, alice.userToken, sent.body.data.id);
  }
  expected.alice.sentToday = 3;
  expected.alice.sent30d = 3;
  expected.alice.deliveryFailures = 1;
  expected.bob.receivedToday += 2;
  expected.bob.received30d += 2;
  // The failure comes back to the sender as a bounce, received mail like any other.
  await waitFor(
    async () => {
      const { list } = await inbox(server, alice.userToken, `&address=${aliceFirst.address}`);
      return list.some((item) => item.subject.startsWith('退信：'));
    },
    { timeoutMs: 10_000, what: 'the bounce' },
  );
  expected.alice.receivedToday += 1;
  expected.alice.received30d += 1;
});
afterAll(async () => server.close());

function sum(field: keyof Expected): number {
  return expected.alice[field] + expected.bob[field];
}

describe('getDashboard', () => {
  it('shows a user the figures of their own domains and mailboxes', async () => {
    for (const [name, world] of [
      ['alice', alice],
      ['bob', bob],
    ] as const) {
      const data = await dashboard(world.userToken);
      const mine = expected[name];
      expect(data.scope).toBe('own');
      expect(data.totals).toMatchObject({
        receivedToday: mine.receivedToday,
        received30d: mine.received30d,
        sentToday: mine.sentToday,
        sent30d: mine.sent30d,
        addresses: mine.addresses,
        mailboxes: mine.mailboxes,
        domains: mine.domains,
        queueLength: 0,
        deliveryFailures: mine.deliveryFailures,
      });
      const stored = await server.app.database.db
        .selectFrom('messages')
        .innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
        .select((eb) => eb.fn.sum<number>('messages.size').as('bytes'))
        .where('mailboxes.owner_id', '=', world.userId)
        .executeTakeFirstOrThrow();
      expect(data.totals.storageBytes).toBe(Number(stored.bytes));
    }
  });

  it('gives administrators the whole system', async () => {
    const data = await dashboard(admin);
    expect(data.scope).toBe('system');
    for (const field of [
      'receivedToday',
      'received30d',
      'sentToday',
      'sent30d',
      'addresses',
      'mailboxes',
      'domains',
      'deliveryFailures',
    ] as const) {
      expect(data.totals[field], field).toBe(sum(field));
    }
  });

  it('has a 30-day daily series ending today that adds up to the totals', async () => {
    const data = await dashboard(alice.userToken);
    expect(data.daily).toHaveLength(30);
    expect(data.daily[29]?.date).toBe(localDate(Date.now()));
    expect(data.daily[0]?.date).toBe(localDate(Date.now() - 29 * DAY));
    const day = data.daily.find((entry) => entry.date === localDate(Date.now() - 3 * DAY));
    expect(day).toMatchObject({ received: expected.alice.threeDaysAgo, sent: 0 });
    expect(data.daily[29]).toMatchObject({
      received: expected.alice.receivedToday,
      sent: expected.alice.sentToday,
    });
    const received = data.daily.reduce((total, entry) => total + entry.received, 0);
    expect(received).toBe(expected.alice.received30d);
  });

  it('rates health on six dimensions for the radar chart', async () => {
    const data = await dashboard(alice.userToken);
    expect(data.radar).toHaveLength(6);
    const byName = Object.fromEntries(data.radar.map((item) => [item.name, item.value]));
    for (const item of data.radar) {
      expect(item.max).toBe(100);
      expect(item.value).toBeGreaterThanOrEqual(0);
      expect(item.value).toBeLessThanOrEqual(100);
    }
    // One spam of five received in the window (four and the bounce); two of three deliveries
    // succeeded.
    expect(byName.垃圾邮件控制).toBe(80);
    expect(byName.投递成功率).toBeCloseTo(66.7, 1);
    // The domain's DNS was never checked.
    expect(byName['DNS 配置']).toBe(0);
    expect(byName.邮箱可用率).toBe(100);
  });

  it('is for system accounts only', async () => {
    const mailbox = await server.api('POST', 'loginEmail', {
      body: { email: `account@${alice.domain}`, password: 'mailbox-pw-1' },
    });
    expectOk(mailbox.body);
    const refused = await server.api('GET', 'user/getDashboard', { token: mailbox.body.data.token });
    expect(refused.status).toBe(403);
    expect((await server.api('GET', 'user/getDashboard')).status).toBe(401);
  });
});
