import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * verCard extends an existing mailbox when the caller knows its password, and a wrong password
 * does not use the card: without a count, one valid card was a way to guess any mailbox's password
 * in parallel, round the login throttle.
 */
describe('card redemption as a password oracle', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    // The per-address sign-up limit would hide what this test is about.
    await server.api('POST', 'user/updateSetting', {
      token: await server.adminToken(),
      body: { system: { registerPerIpPerHour: 0 } },
    });
  });
  afterAll(async () => server?.close());

  it('evaluates at most five password guesses per mailbox and source, parallel or not', async () => {
    const owner = await createUser(server, 'card-owner');
    const domain = await addDomain(server, owner.token, 'cardguess.test');
    await server.api('POST', 'user/createEmailAccount', {
      token: owner.token,
      body: {
        domainId: domain.id,
        localPart: 'victim',
        password: 'right-pass-1',
        expiresAt: Date.now() + 86_400_000,
      },
    });
    const cards = await server.api('POST', 'user/createCard', {
      token: owner.token,
      body: { count: 1, domainId: domain.id, validDays: 30 },
    });
    expectOk(cards.body);
    const code = cards.body.data.codes[0];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        server.api('POST', 'verCard', {
          body: { code, localPart: 'victim', password: index === 20 ? 'right-pass-1' : `guess-${index}` },
        }),
      ),
    );
    const evaluated = answers.filter((answer) => answer.status !== 429);
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(35);
  });
});
