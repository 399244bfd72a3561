import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A user's regex filter could take ~50 ms per message, with no limit on their number: 100 filters
 * stalled the whole server for 5 s per message. Patterns now run in a linear-time engine, with caps.
 */
describe('regex content filters', () => {
  let server: TestServer;
  let world: MailWorld;
  let address: string;
  beforeAll(async () => {
    server = await startTestServer();
    world = await createUserWithDomain(server, 'regex');
    address = (await createAddress(server, world, 'inbox')).address;
  });
  afterAll(async () => server?.close());

  const addFilter = (value: string, field = 'body') =>
    server.api('POST', 'user/addFilter', {
      token: world.userToken,
      body: { field, match: 'regex', value, action: 'spam' },
    });

  it('runs catastrophic patterns on a crafted message without stalling the event loop', async () => {
    for (const pattern of ['(a+)+$', '(x+x+)+y', '^(a|aa)+$', '(a*)*b', '(.*a){12}']) {
      expect((await addFilter(pattern)).body.error, pattern).toBe(0);
    }
    const monitor = monitorEventLoopDelay({ resolution: 10 });
    monitor.enable();
    const body = `${'a'.repeat(30_000)}!\r\n${'x'.repeat(30_000)}`;
    const result = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, 'crafted', body),
    });
    monitor.disable();
    expect(result.data?.code).toBe(250);
    // Stored, in the inbox or (a spam filter matched) in Junk: getInbox lists one folder at a time.
    const stored = await Promise.all(
      ['inbox', 'junk'].map(
        async (folder) => (await inbox(server, world.userToken, `&q=crafted&folder=${folder}`)).total,
      ),
    );
    expect(stored.reduce((sum, total) => sum + total, 0)).toBe(1);
    // A correctness bound, not a benchmark: a backtracking engine stalls for minutes on this.
    expect(monitor.max / 1e6).toBeLessThan(1000);
  });

  it('refuses patterns the linear engine cannot run, with a Chinese reason', async () => {
    const backreference = await addFilter('(ab)\\1');
    expect(backreference.status).toBe(400);
    expect(backreference.body.msg).toMatch(/反向引用/);
    expect((await addFilter('foo(?=bar)')).status).toBe(400);
    expect((await addFilter('(unclosed')).status).toBe(400);
  });

  it('caps the number of pattern filters per account, also under parallel additions', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => addFilter(`pattern-${index}`)),
    );
    const { body } = await server.api('GET', 'user/getFilters', { token: world.userToken });
    const patterns = body.data?.filter((filter) => filter.match === 'regex');
    expect(patterns).toHaveLength(20);
    const refused = answers.filter((answer) => answer.status === 403);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.body.msg).toMatch(/上限（20 条）/);
  });
});
