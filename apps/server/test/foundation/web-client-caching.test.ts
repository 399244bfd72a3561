import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox } from '../support/fixtures.js';
import { messageWithAttachment, sendMail } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** An answer as it went over the wire: fetch would decode the body and drop what it was. */
interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The body as the client reads it, whatever encoding the server chose. */
function decoded(response: WireResponse): Buffer {
  switch (response.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(response.body);
    case 'gzip':
      return gunzipSync(response.body);
    default:
      return response.body;
  }
}

const INDEX_HTML = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`;
const SCRIPT = `export const greeting = ${JSON.stringify('你好，'.repeat(2000))};\n`;

describe('web client: caching and compression', () => {
  let server: TestServer;
  let webRoot: string;

  beforeAll(async () => {
    // A built client as scripts/build.mjs leaves it: index.html, hashed assets, and .br/.gz beside
    // each text file; the bodies of the variants are told apart from the plain file on purpose.
    webRoot = await mkdtemp(join(tmpdir(), 'youju-web-'));
    await mkdir(join(webRoot, 'assets'));
    await writeFile(join(webRoot, 'index.html'), INDEX_HTML);
    await writeFile(join(webRoot, 'index.html.br'), brotliCompressSync(INDEX_HTML));
    await writeFile(join(webRoot, 'index.html.gz'), gzipSync(INDEX_HTML));
    const script = join(webRoot, 'assets/index-Ab12Cd34.js');
    await writeFile(script, SCRIPT);
    await writeFile(`${script}.br`, brotliCompressSync(SCRIPT));
    await writeFile(`${script}.gz`, gzipSync(SCRIPT));
    await writeFile(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer({ webRoot });
  });
  afterAll(async () => {
    await server?.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  it('serves hashed assets precompressed, by Accept-Encoding, cached for a year', async () => {
    const url = `${server.baseUrl}/assets/index-Ab12Cd34.js`;
    for (const [accepted, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const response = await get(url, { 'accept-encoding': accepted });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decoded(response).toString()).toBe(SCRIPT);
    }
    const brotli = await get(url, { 'accept-encoding': 'br' });
    expect(brotli.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 10);
  });

  it.each(['/', '/home', '/user/inbox', '/index.html'])(
    'answers %s with index.html to revalidate, and 304 while it is unchanged',
    async (path) => {
      const first = await get(`${server.baseUrl}${path}`, { 'accept-encoding': 'br' });
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toMatch(/^text\/html/);
      expect(first.headers['content-encoding']).toBe('br');
      expect(first.headers['cache-control']).toBe('no-cache');
      expect(decoded(first).toString()).toBe(INDEX_HTML);
      const etag = expectDefined(first.headers.etag, 'ETag') as string;

      const again = await get(`${server.baseUrl}${path}`, { 'accept-encoding': 'br', 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('no-cache');
    },
  );

  it('revalidates files outside assets/ too, also those without a precompressed form', async () => {
    const first = await get(`${server.baseUrl}/favicon.svg`, { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = expectDefined(first.headers.etag, 'ETag') as string;
    const again = await get(`${server.baseUrl}/favicon.svg`, {
      'accept-encoding': 'br',
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['content-encoding']).toBeUndefined();
  });

  it('answers a missing asset with 404, not with index.html', async () => {
    const response = await get(`${server.baseUrl}/assets/index-Old00000.js`);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('compresses API answers with brotli or gzip and leaves small ones alone', async () => {
    const url = `${server.baseUrl}/api/openapi.json`;
    for (const encoding of ['br', 'gzip']) {
      const response = await get(url, { 'accept-encoding': encoding });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(JSON.parse(decoded(response).toString()).openapi).toMatch(/^3\./);
    }
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const small = await get(`${server.baseUrl}/api/user/getInbox`, { 'accept-encoding': 'br' });
    expect(small.status).toBe(401);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  describe('mail content', () => {
    let token: string;
    let messageId: number;
    // Random bytes stand for an archive: nothing to gain by compressing them again.
    const archive = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 251));

    beforeAll(async () => {
      const world = await createUserWithDomain(server, 'wire');
      token = world.userToken;
      const address = (await createAddress(server, world, 'inbox')).address;
      const content = messageWithAttachment(
        ['From: <sender@sender.example>', `To: <${address}>`, 'Subject: compressed or not'],
        '正文'.repeat(1000),
        {
          headers: [
            'Content-Type: application/zip; name="bundle.zip"',
            'Content-Disposition: attachment; filename="bundle.zip"',
            'Content-Transfer-Encoding: base64',
          ],
          body: archive.toString('base64').replace(/.{76}/g, '$&\r\n'),
        },
      );
      expect((await sendMail(server.smtpPort, { to: [address], content })).data?.code).toBe(250);
      messageId = expectDefined((await inbox(server, token)).list[0], 'the message').id;
    });

    it('sends an attachment that is compressed already as it is, with its length', async () => {
      const response = await get(`${server.baseUrl}/api/user/attachment/${messageId}-0?token=${token}`, {
        'accept-encoding': 'br, gzip',
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-length']).toBe(String(archive.length));
      expect(response.body.equals(archive)).toBe(true);
    });

    it('compresses a raw message and it arrives intact', async () => {
      const url = `${server.baseUrl}/api/user/raw/${messageId}?token=${token}`;
      const plain = await get(url);
      const compressed = await get(url, { 'accept-encoding': 'br' });
      expect(compressed.headers['content-encoding']).toBe('br');
      expect(compressed.headers['content-disposition']).toBe(plain.headers['content-disposition']);
      expect(decoded(compressed).equals(plain.body)).toBe(true);
      expect(compressed.body.length).toBeLessThan(plain.body.length);
    });

    it('never compresses the live inbox stream', async () => {
      const events = new AbortController();
      const response = await new Promise<{ headers: WireResponse['headers']; first: string }>(
        (resolve, reject) => {
          request(`${server.baseUrl}/api/user/events?token=${token}`, {
            headers: { 'accept-encoding': 'br, gzip' },
            signal: events.signal,
          })
            .on('response', (incoming) => {
              incoming.once('data', (chunk: Buffer) =>
                resolve({ headers: incoming.headers, first: chunk.toString() }),
              );
            })
            .on('error', reject)
            .end();
        },
      );
      events.abort();
      expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(response.headers['content-encoding']).toBeUndefined();
      // Readable as it comes: the first event is plain text, not held back in a compressor.
      expect(response.first).toContain('retry:');
    });
  });
});
