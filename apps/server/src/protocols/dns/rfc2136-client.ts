/**
 * The client side of DNS UPDATE (RFC 2136 section 3) signed with TSIG (RFC 8945): one request over
 * UDP, or TCP when it is too large or the answer is truncated (RFC 1035 section 4.2), and the
 * checks on the answer. Which servers a caller may send to is the caller's business.
 */
import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIP, Socket } from 'node:net';
import {
  DnsWireError,
  encodeUpdate,
  type ParsedResponse,
  parseResponse,
  Rcode,
  type ResourceRecord,
  signRequest,
  type TsigKey,
  verifyResponse,
} from './dns-wire.js';

/** Why an UPDATE failed, for the caller to turn into a message a person can act on. */
export class DnsUpdateError extends Error {
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'rcode' | 'tsig' | 'unsigned' | 'badResponse',
    message: string,
    readonly rcode?: number,
    readonly tsigError?: number,
  ) {
    super(message);
  }
}

export interface ServerAddress {
  host: string;
  port: number;
}

/** `ip`, `ip:port` or `[ipv6]:port`; port 53 when absent. Null when it is not an address. */
export function parseServerAddress(text: string): ServerAddress | null {
  const value = text.trim();
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(value);
  const v4 = /^([0-9.]+)(?::(\d+))?$/.exec(value);
  const host = bracketed?.[1] ?? v4?.[1] ?? value;
  const port = Number(bracketed?.[2] ?? v4?.[2] ?? 53);
  if (!isIP(host) || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host, port };
}

function exchangeUdp(server: ServerAddress, message: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
    const id = message.readUInt16BE(0);
    const finish = (error: Error | null, answer?: Buffer) => {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else if (answer) resolve(answer);
    };
    const timer = setTimeout(
      () => finish(new DnsUpdateError('timeout', `no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('message', (answer) => {
      // Anything else on this port (a stray or spoofed datagram) is ignored.
      if (answer.length >= 2 && answer.readUInt16BE(0) === id) finish(null, answer);
    });
    socket.on('error', (error) => finish(new DnsUpdateError('unreachable', error.message)));
    socket.send(message, server.port, server.host);
  });
}

/** RFC 1035 4.2.2: over TCP every message is preceded by its two-byte length. */
function exchangeTcp(server: ServerAddress, message: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let received = Buffer.alloc(0);
    const finish = (error: Error | null, answer?: Buffer) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else if (answer) resolve(answer);
    };
    const timer = setTimeout(
      () => finish(new DnsUpdateError('timeout', `no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2) {
        const length = received.readUInt16BE(0);
        if (received.length >= 2 + length) finish(null, received.subarray(2, 2 + length));
      }
    });
    socket.on('error', (error) => finish(new DnsUpdateError('unreachable', error.message)));
    socket.on('close', () => finish(new DnsUpdateError('unreachable', 'connection closed before an answer')));
    socket.connect(server.port, server.host, () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length);
      socket.write(Buffer.concat([length, message]));
    });
  });
}

export interface UpdateRequest {
  server: ServerAddress;
  zone: string;
  key: TsigKey;
  updates: ResourceRecord[];
  timeoutMs?: number;
}

/** UDP answers are limited to 512 bytes without EDNS (RFC 1035 4.2.1); larger requests go by TCP. */
const UDP_LIMIT = 512;

/** An answer that is not a DNS message is a bad response, like one that does not match. */
function readAnswer(answer: Buffer): ParsedResponse {
  try {
    return parseResponse(answer);
  } catch (error) {
    if (error instanceof DnsWireError) throw new DnsUpdateError('badResponse', error.message);
    throw error;
  }
}

/**
 * Sends one signed UPDATE (RFC 2136 section 3) and checks the answer: the same ID, a response to an
 * UPDATE, a valid TSIG signature (RFC 8945 5.3), and RCODE NOERROR. Throws a DnsUpdateError
 * otherwise.
 */
export async function sendUpdate(request: UpdateRequest): Promise<void> {
  const timeoutMs = request.timeoutMs ?? 5000;
  const id = randomInt(0, 0x10000);
  const unsigned = encodeUpdate({ id, zone: request.zone, updates: request.updates });
  const { signed, mac } = signRequest(unsigned, request.key);
  let answer =
    signed.length > UDP_LIMIT
      ? await exchangeTcp(request.server, signed, timeoutMs)
      : await exchangeUdp(request.server, signed, timeoutMs);
  let parsed = readAnswer(answer);
  if (parsed.truncated) {
    answer = await exchangeTcp(request.server, signed, timeoutMs);
    parsed = readAnswer(answer);
  }
  if (parsed.id !== id || !parsed.isResponse) {
    throw new DnsUpdateError('badResponse', 'answer does not match the request');
  }
  const tsigError = parsed.tsig?.error ?? 0;
  if (tsigError !== 0) {
    throw new DnsUpdateError('tsig', `TSIG error ${tsigError}`, parsed.rcode, tsigError);
  }
  if (parsed.rcode === Rcode.NOTAUTH && !parsed.tsig) {
    throw new DnsUpdateError('rcode', 'NOTAUTH', parsed.rcode);
  }
  if (parsed.tsig && !verifyResponse(answer, parsed, request.key, mac)) {
    throw new DnsUpdateError('tsig', 'response signature does not verify', parsed.rcode, Rcode.BADSIG);
  }
  if (parsed.rcode !== Rcode.NOERROR)
    throw new DnsUpdateError('rcode', `RCODE ${parsed.rcode}`, parsed.rcode);
  // RFC 8945 5.3: a server that knows the key signs its answer; an unsigned success is not trusted.
  if (!parsed.tsig) throw new DnsUpdateError('unsigned', 'answer carries no TSIG');
}
