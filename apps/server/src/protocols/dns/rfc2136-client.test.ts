import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationsOf } from '../../../test/support/mutations.js';
import {
  parseResponse,
  RecordClass,
  RecordType,
  signResponse,
  type TsigKey,
  txtRdata,
  verifyRequest,
} from './dns-wire.js';
import { DnsUpdateError, parseServerAddress, sendUpdate } from './rfc2136-client.js';

const key: TsigKey = {
  name: 'update-key',
  algorithm: 'hmac-sha256',
  secret: Buffer.from('c2VjcmV0', 'base64'),
};

/**
 * A UDP name server on loopback that checks the request's signature and answers with whatever
 * `answer` makes of it (a good signed response, or damaged bytes).
 */
let server: Socket;
let answer: (request: Buffer) => Buffer;
beforeAll(async () => {
  server = createSocket('udp4');
  server.on('message', (request, peer) => {
    const parsed = parseResponse(request);
    if (!verifyRequest(request, parsed, key)) throw new Error('request signature does not verify');
    server.send(answer(request), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
});
afterAll(() => server.close());

/** NOERROR, signed over the request's MAC, as BIND answers an accepted UPDATE. */
function goodAnswer(request: Buffer): Buffer {
  const mac = parseResponse(request).tsig?.mac ?? Buffer.alloc(0);
  const header = Buffer.from(request.subarray(0, 12));
  header.writeUInt16BE(0x8000 | (5 << 11), 2);
  header.writeUInt16BE(0, 4);
  header.writeUInt16BE(0, 8);
  header.writeUInt16BE(0, 10);
  return signResponse(header, key, mac);
}

const update = () => ({
  server: { host: '127.0.0.1', port: (server.address() as AddressInfo).port },
  zone: 'youju.test',
  key,
  updates: [
    {
      name: 'youju.test',
      type: RecordType.TXT,
      class: RecordClass.IN,
      ttl: 600,
      rdata: txtRdata('v=spf1 mx -all'),
    },
  ],
  timeoutMs: 2000,
});

describe('sendUpdate (RFC 2136 section 3, RFC 8945)', () => {
  it('accepts a signed NOERROR answer', async () => {
    answer = goodAnswer;
    await expect(sendUpdate(update())).resolves.toBeUndefined();
  });

  it('refuses a damaged answer with a DnsUpdateError, whatever the damage', async () => {
    let completed = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 }), async (seed) => {
        answer = (request) => {
          const [damaged] = fc.sample(mutationsOf(goodAnswer(request)), { seed, numRuns: 1 });
          // keep the ID so the client looks at it (anything else is ignored as a stray datagram)
          return damaged && damaged.length >= 2
            ? Buffer.concat([request.subarray(0, 2), damaged.subarray(2)])
            : request.subarray(0, 2);
        };
        try {
          await sendUpdate({ ...update(), timeoutMs: 300 });
        } catch (error) {
          expect(error).toBeInstanceOf(DnsUpdateError);
        }
        completed += 1;
      }),
      { numRuns: 150 },
    );
    expect(completed).toBe(150);
  });

  it('reads server addresses', () => {
    expect(parseServerAddress('192.0.2.1')).toEqual({ host: '192.0.2.1', port: 53 });
    expect(parseServerAddress('192.0.2.1:5353')).toEqual({ host: '192.0.2.1', port: 5353 });
    expect(parseServerAddress('[2001:db8::1]:53')).toEqual({ host: '2001:db8::1', port: 53 });
    expect(parseServerAddress('ns.example')).toBeNull();
    fc.assert(
      fc.property(fc.string(), (text) => void parseServerAddress(text)),
      { numRuns: 500 },
    );
  });
});
