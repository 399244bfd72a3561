import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createAddress, createUserWithDomain } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';

/** Slow connections from one address used to fill every slot, and the server answered 421 to all. */
describe('SMTP connections per source', () => {
  let server: TestServer;
  let address: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    const world = await createUserWithDomain(server, 'conns');
    address = (await createAddress(server, world, 'inbox')).address;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await server?.close();
  });

  /** Opens a connection from `localAddress` and resolves with the first reply line (or 'closed'). */
  function open(localAddress: string): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect({ port: server.smtpPort, host: '127.0.0.1', localAddress });
      sockets.push(socket);
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n')) resolve(text.split('\r\n')[0] ?? '');
      });
      socket.on('error', () => resolve('closed'));
      socket.on('close', () => resolve(text.split('\r\n')[0] || 'closed'));
    });
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
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await open('127.0.0.2')).toMatch(/^220/);
  });
});
