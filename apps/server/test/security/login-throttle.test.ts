import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

const PASSWORD = 'user-password-1';

/**
 * Password guessing: a burst of parallel guesses used to be checked before any was counted, so all
 * 150 were evaluated and the right one got through; and five wrong passwords from anywhere locked the
 * owner out. Sources are told apart through a trusted proxy's X-Forwarded-For.
 */
describe('login throttling', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    ({ server, admin } = await startTestServerAsAdmin({ env: { TRUSTED_PROXIES: '127.0.0.1/8,::1' } }));
  });
  afterAll(async () => server?.close());

  const login = (username: string, password: string, source: string) =>
    server.api('POST', 'login', { body: { username, password }, headers: { 'x-forwarded-for': source } });

  it('evaluates at most the limit of 150 parallel guesses, and the right password among them fails', async () => {
    await createUser(server, 'burst-victim');
    const guesses = Array.from({ length: 150 }, (_, index) =>
      login('burst-victim', index === 75 ? PASSWORD : `wrong-${index}`, '203.0.113.10'),
    );
    const answers = await Promise.all(guesses);
    const evaluated = answers.filter((answer) => answer.status !== 429);
    // loginMaxFailuresPerAccount is 5: at most five attempts reached the password check
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(145);
    // and while the source is locked out, the right password is refused too
    expect((await login('burst-victim', PASSWORD, '203.0.113.10')).status).toBe(429);
  });

  it('does not let a stranger lock the owner out', async () => {
    await createUser(server, 'owner-kept');
    // the owner's usual network
    expect((await login('owner-kept', PASSWORD, '198.51.100.20')).status).toBe(200);
    for (let i = 0; i < 8; i++) await login('owner-kept', `guess-${i}`, '203.0.113.66');
    expect((await login('owner-kept', PASSWORD, '203.0.113.66')).status).toBe(429);
    // the owner, from their own address, logs in as usual
    const own = await login('owner-kept', PASSWORD, '198.51.100.20');
    expect(own.status).toBe(200);
    // and the administrator is never locked out by strangers either
    for (let i = 0; i < 8; i++) await login('admin', `guess-${i}`, '203.0.113.67');
    expect((await login('admin', 'admin-password-1', '198.51.100.21')).status).toBe(200);
  });

  it('holds back a guess spread over many addresses, without touching the owner’s own', async () => {
    await createUser(server, 'spread-victim');
    expect((await login('spread-victim', PASSWORD, '198.51.100.30')).status).toBe(200);
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      const answer = await login('spread-victim', `guess-${i}`, `203.0.${113 + Math.floor(i / 4)}.${i}`);
      if (answer.status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    // a stranger's right password is held back now, the owner's usual network is not
    expect((await login('spread-victim', PASSWORD, '192.0.2.200')).status).toBe(429);
    expect((await login('spread-victim', PASSWORD, '198.51.100.30')).status).toBe(200);
  });

  it('throttles mailbox logins the same way', async () => {
    const domain = await server.api('POST', 'user/addDomain', {
      token: admin,
      body: { name: 'throttle-box.test' },
    });
    await server.api('POST', 'user/createEmailAccount', {
      token: admin,
      body: { domainId: domain.body.data?.id, localPart: 'boss', password: 'mailbox-pass-1' },
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        server.api('POST', 'loginEmail', {
          body: { email: 'boss@throttle-box.test', password: index === 20 ? 'mailbox-pass-1' : `x-${index}` },
          headers: { 'x-forwarded-for': '203.0.113.90' },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status !== 429).length).toBeLessThanOrEqual(5);
  });
});
