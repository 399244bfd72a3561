import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { apiKeyOf, createUser } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

/** Unlimited live-inbox streams per token exhausted the process's file descriptors. */
describe('event streams per token', () => {
  let server: TestServer;
  const controllers: AbortController[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const controller of controllers) controller.abort();
    await server?.close();
  });

  async function openStream(token: string): Promise<number> {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${server.baseUrl}/api/user/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    if (response.status !== 200) await response.text();
    return response.status;
  }

  it('caps streams per token, while another user still connects, and frees the slot on close', async () => {
    const user = await createUser(server, 'streamer');
    const statuses = [];
    for (let i = 0; i < 30; i++) statuses.push(await openStream(user.token));
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const other = await createUser(server, 'bystander');
    expect(await openStream(other.token)).toBe(200);
    // closing streams gives their slots back
    for (const controller of controllers.splice(0)) controller.abort();
    await waitFor(async () => (await openStream(user.token)) === 200, {
      timeoutMs: 3000,
      what: 'a stream slot given back',
    });
  });

  it('caps waitEmail long polls per API key', async () => {
    const admin = await server.adminToken();
    const key = await apiKeyOf(server, admin);
    const domain = await server.api('POST', 'user/addDomain', { token: admin, body: { name: 'wait.test' } });
    const address = await server.api('POST', 'user/createEmail', {
      token: admin,
      body: { domainId: domain.body.data?.id, localPart: 'nobody' },
    });
    expectOk(address.body);
    const waits = await Promise.all(
      Array.from({ length: 25 }, () =>
        server
          .api('GET', 'open/waitEmail?address=nobody@wait.test&timeout=3', { headers: { 'x-api-key': key } })
          .then((response) => response.status),
      ),
    );
    expect(waits.filter((status) => status === 429)).toHaveLength(5);
    expect(waits.filter((status) => status !== 429)).toHaveLength(20);
  });
});
