import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { ownerWithDomain } from './helpers.js';

// Its own server: the per-IP counter of wrong codes must not spill into other tests.
let server: TestServer;
let owner: Awaited<ReturnType<typeof ownerWithDomain>>;
beforeAll(async () => {
  server = await startTestServer();
  owner = await ownerWithDomain(server, 'owner', 'limit.youju.test');
});
afterAll(async () => server.close());

describe('card redemption rate limit', () => {
  it('answers 429 in Chinese after 10 wrong codes from one IP, even for a right code then', async () => {
    const created = await server.api('POST', 'user/createCard', {
      token: owner.token,
      body: { count: 1, validDays: 1, domainId: owner.domain.id },
    });
    expectOk(created.body);
    const good = created.body.data.codes[0];
    const wrongs = ['YJ-0000-0000-0000-0000', 'not a code', 'YJ-ZZZZ-ZZZZ-ZZZZ-ZZZZ'];
    for (let i = 0; i < 10; i++) {
      const answer = await server.api('POST', 'verCard', {
        body: { code: wrongs[i % wrongs.length], localPart: 'guess', password: 'guess-pass' },
      });
      expect(answer.status, `attempt ${i + 1}`).toBe(400);
      expect(answer.body.msg).toBe('卡密不正确，请检查后重新输入');
    }
    const limited = await server.api('POST', 'verCard', {
      body: { code: good, localPart: 'guess', password: 'guess-pass' },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/错误次数过多，请 15 分钟后再试/);
    const card = await server.app.database.db.selectFrom('cards').select('status').executeTakeFirstOrThrow();
    expect(card.status).toBe('unused');
  });
});
