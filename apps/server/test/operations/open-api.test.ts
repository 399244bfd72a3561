import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, getRaw, type HttpMethod } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { sleep } from '../support/wait-for.js';

let server: TestServer;
let world: MailWorld;

beforeAll(async () => {
  server = await startTestServer();
  world = await createUserWithDomain(server, 'openapi');
});
afterAll(async () => server.close());

/** An open API call with the key in X-API-Key. */
function open<P extends string>(key: string | null, method: HttpMethod, path: P, body?: unknown) {
  return server.api(method, `open/${path}` as `open/${P}`, {
    body,
    headers: key === null ? {} : { 'x-api-key': key },
  });
}

/** A new key for the world's owner (the old one stops working). */
async function refreshKey(): Promise<string> {
  const { body } = await server.api('POST', 'user/refreshKey', { token: world.userToken });
  expectOk(body);
  return body.data.key;
}

async function deliver(to: string, subject: string): Promise<void> {
  const result = await sendMail(server.smtpPort, {
    to: [to],
    content: simpleMessage(to, subject, `正文：${subject}`),
  });
  expect(result.data?.code).toBe(250);
}

describe('API keys', () => {
  it('shows a new key once in full, masked afterwards; refreshing revokes the old one at once', async () => {
    const first = await server.api('GET', 'user/getKey', { token: world.userToken });
    expectOk(first.body);
    expect(first.body.data).toMatchObject({ masked: false, lastUsedAt: null });
    const key = first.body.data.key;
    expect(key).toMatch(/^yj_[A-Za-z0-9_-]{32}$/);
    expect(first.body.data.maskedKey.endsWith(key.slice(-4))).toBe(true);

    const again = await server.api('GET', 'user/getKey', { token: world.userToken });
    expect(again.body.data).toMatchObject({ masked: true, key: first.body.data.maskedKey });
    expect(JSON.stringify(again.body)).not.toContain(key);

    expect((await open(key, 'GET', `getInbox?address=nobody@${world.domain}`)).status).toBe(404);
    const refreshed = await server.api('POST', 'user/refreshKey', { token: world.userToken });
    expectOk(refreshed.body);
    const newKey = refreshed.body.data.key;
    expect(newKey).not.toBe(key);
    expect(refreshed.body.data.masked).toBe(false);
    const old = await open(key, 'POST', 'createEmail', {});
    expect(old.status).toBe(403);
    expect(old.body.msg).toMatch(/API 密钥无效或已被重置/);
    expect((await open(newKey, 'POST', 'createEmail', {})).body.error).toBe(0);

    // A mailbox session has no key; no key and a made-up key are refused in Chinese.
    expect((await server.api('GET', 'user/getKey', { token: world.userToken })).body.data?.masked).toBe(true);
    const missing = await open(null, 'POST', 'createEmail', {});
    expect(missing.status).toBe(403);
    expect(missing.body.msg).toMatch(/X-API-Key/);
    expect((await open('yj_made-up', 'POST', 'createEmail', {})).status).toBe(403);
  });
});

describe('open API', () => {
  let key: string;
  beforeAll(async () => {
    key = await refreshKey();
  });

  /** A new address through the open API with the current key. */
  async function openAddress(localPart: string): Promise<string> {
    const { body } = await open(key, 'POST', 'createEmail', { localPart });
    expectOk(body);
    return body.data.address;
  }

  it('creates an address, waits for mail arriving over SMTP, lists, reads and deletes it', async () => {
    const created = await open(key, 'POST', 'createEmail', { localPart: 'Robot.1' });
    expectOk(created.body);
    expect(created.body.data.address).toBe(`robot.1@${world.domain}`);
    const random = await open(key, 'POST', 'createEmail', { domainId: world.domainId });
    expect(random.body.data?.address).toMatch(
      new RegExp(`^[a-z0-9]{10}@${world.domain.replace(/\./g, '\\.')}$`),
    );
    const address = created.body.data.address;

    // The long poll answers as soon as the message is stored, well before its timeout.
    const started = Date.now();
    const waiting = open(key, 'GET', `waitEmail?address=${encodeURIComponent(address)}&timeout=20`);
    // The mail comes while the call waits: the answer cannot come sooner than this.
    await sleep(300);
    await deliver(address, '验证码 123456');
    const arrived = await waiting;
    const elapsed = Date.now() - started;
    expectOk(arrived.body);
    // The code is found when the message is stored, and every answer carries it.
    expect(arrived.body.data).toMatchObject({ address, subject: '验证码 123456', code: '123456' });
    expect(arrived.body.data.text).toContain('正文：验证码 123456');
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(5000);
    const id = arrived.body.data.id;

    const inbox = await open(
      key,
      'GET',
      `getInbox?address=${encodeURIComponent(address)}&page=1&pageSize=10`,
    );
    expect(inbox.body.data).toMatchObject({ total: 1, page: 1, pageSize: 10 });
    expect(inbox.body.data?.list[0]).toMatchObject({ id, subject: '验证码 123456', code: '123456' });
    const detail = await open(key, 'GET', `getEmail?id=${id}`);
    expect(detail.body.data).toMatchObject({ id, subject: '验证码 123456', attachments: [], code: '123456' });

    // With `after`, a message already there is answered at once; nothing newer → 408 on time.
    const existing = await open(
      key,
      'GET',
      `waitEmail?address=${encodeURIComponent(address)}&after=0&timeout=5`,
    );
    expect(existing.body.data?.id).toBe(id);
    const before = Date.now();
    const timedOut = await open(
      key,
      'GET',
      `waitEmail?address=${encodeURIComponent(address)}&after=${id}&timeout=1`,
    );
    expect(timedOut.status).toBe(408);
    expect(timedOut.body).toMatchObject({ error: 408 });
    expect(timedOut.body.msg).toMatch(/1 秒内没有收到新邮件/);
    expect(Date.now() - before).toBeGreaterThanOrEqual(950);
    expect(Date.now() - before).toBeLessThan(4000);

    const deleted = await open(key, 'POST', 'delEmail', { ids: [id] });
    expect(deleted.body.data).toEqual({ deleted: 1 });
    expect((await open(key, 'GET', `getEmail?id=${id}`)).status).toBe(404);
  });

  it('only waits for the next message of the address it was asked about', async () => {
    const first = await openAddress('watcher');
    const second = await openAddress('bystander');
    const waiting = open(key, 'GET', `waitEmail?address=${first}&timeout=15`);
    // The order of events is the test: the call waits, mail for another address comes and must
    // not end the wait, then the awaited mail comes.
    await sleep(200);
    await deliver(second, '不是给你的');
    await sleep(200);
    await deliver(first, '这封才是');
    const arrived = await waiting;
    expect(arrived.body.data).toMatchObject({ address: first, subject: '这封才是' });
  });

  it("refuses addresses, messages and domains that are not the key owner's", async () => {
    const other = await createUserWithDomain(server, 'openother');
    const { address } = await createAddress(server, other, 'private');
    await deliver(address, '私信');
    const [message] = (await inbox(server, other.userToken, `&address=${address}`)).list;
    const id = message?.id;

    expect((await open(key, 'GET', `getInbox?address=${address}`)).status).toBe(404);
    expect((await open(key, 'GET', `waitEmail?address=${address}&timeout=1`)).status).toBe(404);
    expect((await open(key, 'GET', `getEmail?id=${id}`)).status).toBe(404);
    expect((await open(key, 'POST', 'delEmail', { ids: [id] })).body.data).toEqual({ deleted: 0 });
    expect((await open(key, 'POST', 'createEmail', { domainId: other.domainId })).status).toBe(404);
    const badTimeout = await open(key, 'GET', `waitEmail?address=${address}&timeout=61`);
    expect(badTimeout.status).toBe(400);
    expect(badTimeout.body.msg).toMatch(/等待秒数/);
  });

  it('limits the calls of one key per minute with 429', async () => {
    const fresh = await refreshKey();
    const address = `limit-${Date.now()}@${world.domain}`;
    const statuses: number[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => open(fresh, 'GET', `getInbox?address=${address}`)),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(0);
    const limited = await open(fresh, 'GET', `getInbox?address=${address}`);
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/每分钟最多 120 次/);
    key = await refreshKey();
  });
});

/** The parts of an OpenAPI 3 document these tests read. */
interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  paths: Record<
    string,
    Record<
      string,
      { summary?: string; parameters?: { name: string; schema: unknown }[]; requestBody?: unknown }
    >
  >;
  components: { securitySchemes: Record<string, unknown> };
}

describe('OpenAPI document', () => {
  it('is valid JSON describing the open calls only, with the key header', async () => {
    const response = await getRaw(server, 'openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const document = JSON.parse(response.bytes.toString()) as OpenApiDocument;
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toMatch(/开放接口/);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/open/createEmail',
      '/api/open/delEmail',
      '/api/open/getEmail',
      '/api/open/getInbox',
      '/api/open/waitEmail',
    ]);
    expect(document.components.securitySchemes.apiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    const wait = document.paths['/api/open/waitEmail']?.get;
    expect(wait?.summary).toBe('等待下一封邮件');
    const timeout = wait?.parameters?.find((parameter) => parameter.name === 'timeout');
    expect(timeout?.schema).toMatchObject({ minimum: 1, maximum: 60 });
    expect(document.paths['/api/open/createEmail']?.post?.requestBody).toBeDefined();
  });
});
