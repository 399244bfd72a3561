import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddress, createUserWithDomain } from '../support/fixtures.js';
import { SmtpClient, sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

/** Slow connections from one address used to fill every slot, and the server answered 421 to all. */
describe('SMTP connections per source', () => {
  let server: TestServer;
  let address: string;
  const clients: SmtpClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    const world = await createUserWithDomain(server, 'conns');
    address = (await createAddress(server, world, 'inbox')).address;
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await server?.close();
  });

  /**
   * Opens a connection from `localAddress`, says nothing and leaves it open; resolves with the
   * greeting (code and text) or 'closed'.
   */
  async function open(localAddress: string): Promise<string> {
    try {
      const client = await SmtpClient.connect(server.smtpPort, { localAddress });
      clients.push(client);
      const greeting = await client.read();
      return greeting.code === 0 ? 'closed' : `${greeting.code} ${greeting.text}`;
    } catch {
      return 'closed';
    }
  }

  it('answers 421 only to the source over its share; others still deliver', async () => {
    const greetings = await Promise.all(Array.from({ length: 200 }, () => open('127.0.0.2')));
    const admitted = greetings.filter((line) => line.startsWith('220'));
    const refused = greetings.filter((line) => line.startsWith('421'));
    expect(admitted).toHaveLength(20);
    expect(refused).toHaveLength(180);
    expect(refused[0]).toMatch(/4\.7\.0/);
    // another client is greeted and delivers while those 20 idle connections stay open
    const result = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, 'still open', 'hi'),
    });
    expect(result.greeting.code).toBe(220);
    expect(result.data?.code).toBe(250);
    // when the idle ones go, their source may connect again
    for (const client of clients.splice(0)) client.destroy();
    await waitFor(async () => (await open('127.0.0.2')).startsWith('220'), {
      timeoutMs: 3000,
      what: 'a greeting for 127.0.0.2 once its idle connections are gone',
    });
  });

  it("lets a connection over the share in when one of the source's others ends within a second", async () => {
    for (const client of clients.splice(0)) client.destroy();
    const first = await Promise.all(Array.from({ length: 20 }, () => open('127.0.0.3')));
    expect(first.every((line) => line.startsWith('220'))).toBe(true);
    // The 21st waits rather than being refused at once (a sender opening its next connection as
    // it closes the last) and is greeted when one of the twenty goes.
    const waiting = open('127.0.0.3');
    await new Promise((resolve) => setTimeout(resolve, 100));
    clients.shift()?.destroy();
    expect(await waiting).toMatch(/^220/);
    for (const client of clients.splice(0)) client.destroy();
  });
});
