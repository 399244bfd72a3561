import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  startAlidnsStandIn,
  startCloudflareStandIn,
  startDnspodStandIn,
} from '../../../test/support/dns-api-standins.js';
import { alidnsSignature, popEncode } from './alidns-client.js';
import { unquoteTxt } from './cloudflare-client.js';
import { callApi, DnsApiError, MAX_RESPONSE_BYTES } from './dns-api.js';
import { apiClient } from './dns-api-providers.js';
import { hostnameWarning } from './dns-hostname.js';
import type { DnsLookup } from './dns-lookup.js';
import { setTxtRecords } from './dns-reconcile.js';
import { tc3Authorization } from './dnspod-client.js';

describe('Alibaba Cloud signature version 1.0', () => {
  it('reproduces the example of the Alibaba Cloud DNS documentation (签名机制)', () => {
    const params = {
      Format: 'XML',
      AccessKeyId: 'testid',
      Action: 'DescribeDomainRecords',
      SignatureMethod: 'HMAC-SHA1',
      DomainName: 'example.com',
      SignatureNonce: 'f59ed6a9-83fc-473b-9cc6-99c95df3856e',
      SignatureVersion: '1.0',
      Version: '2015-01-09',
      Timestamp: '2016-03-24T16:41:54Z',
    };
    expect(alidnsSignature(params, 'testsecret')).toBe('uRpHwaSEt3J+6KQD//svCh/x+pI=');
  });

  it('percent-encodes as the POP rules say (space %20, * %2A, ~ kept)', () => {
    expect(popEncode("a b*c~d!'()+/=")).toBe('a%20b%2Ac~d%21%27%28%29%2B%2F%3D');
    expect(popEncode('默认')).toBe('%E9%BB%98%E8%AE%A4');
  });
});

describe('the stand-ins refuse what the real services refuse', () => {
  it('alidns: a stale timestamp and a replayed nonce', async () => {
    const standIn = await startAlidnsStandIn({ zone: 'a.test', keyId: 'id01', secret: 'secret01' });
    try {
      const send = async (timestamp: string, nonce: string) => {
        const params: Record<string, string> = {
          Action: 'DescribeDomainRecords',
          DomainName: 'a.test',
          Format: 'JSON',
          Version: '2015-01-09',
          AccessKeyId: 'id01',
          SignatureMethod: 'HMAC-SHA1',
          SignatureVersion: '1.0',
          SignatureNonce: nonce,
          Timestamp: timestamp,
        };
        params.Signature = alidnsSignature(params, 'secret01');
        const query = Object.entries(params).map(([k, v]) => `${popEncode(k)}=${popEncode(v)}`);
        return (await (await fetch(`${standIn.url}/?${query.join('&')}`)).json()) as { Code?: string };
      };
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      expect((await send(now, 'n1')).Code).toBeUndefined();
      expect((await send(now, 'n1')).Code).toBe('SignatureNonceUsed');
      expect((await send('2016-03-24T16:41:54Z', 'n2')).Code).toBe('InvalidTimeStamp.Expired');
    } finally {
      await standIn.stop();
    }
  });

  it('dnspod: a stale timestamp and a changed body', async () => {
    const standIn = await startDnspodStandIn({ zone: 'p.test', keyId: 'AKIDx', secret: 'key01' });
    try {
      const send = async (timestamp: number, payload: string, sent = payload) => {
        const response = await fetch(`${standIn.url}/`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'X-TC-Action': 'DescribeRecordList',
            'X-TC-Version': '2021-03-23',
            'X-TC-Timestamp': String(timestamp),
            Authorization: tc3Authorization({
              secretId: 'AKIDx',
              secretKey: 'key01',
              host: new URL(standIn.url).host,
              payload,
              timestamp,
            }),
          },
          body: sent,
        });
        return ((await response.json()) as { Response: { Error?: { Code: string } } }).Response.Error?.Code;
      };
      const now = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ Domain: 'p.test' });
      expect(await send(now, body)).toBe('ResourceNotFound.NoDataOfRecord');
      expect(await send(now - 600, body)).toBe('AuthFailure.SignatureExpire');
      expect(await send(now, body, JSON.stringify({ Domain: 'p.test', Limit: 1 }))).toBe(
        'AuthFailure.SignatureFailure',
      );
    } finally {
      await standIn.stop();
    }
  });

  it('cloudflare: a wrong token', async () => {
    const standIn = await startCloudflareStandIn({ zone: 'c.test', secret: 'token-0123456789' });
    try {
      const response = await fetch(`${standIn.url}/client/v4/zones?name=c.test`, {
        headers: { Authorization: 'Bearer token-wrong' },
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { errors: Array<{ code: number }> }).errors[0]?.code).toBe(10000);
    } finally {
      await standIn.stop();
    }
  });
});

describe('TXT content as Cloudflare returns it', () => {
  it('joins quoted character-strings', () => {
    expect(unquoteTxt('"v=DKIM1; k=rsa; p=AB" "CD"')).toBe('v=DKIM1; k=rsa; p=ABCD');
    expect(unquoteTxt('plain text')).toBe('plain text');
  });
});

describe('MAIL_HOSTNAME check', () => {
  const noLookup: DnsLookup = {
    servers: [],
    cancel: () => {},
    mx: () => Promise.reject(new Error('not asked')),
    txt: () => Promise.reject(new Error('not asked')),
    a: () => Promise.reject(new Error('not asked')),
    aaaa: () => Promise.reject(new Error('not asked')),
  };
  it.each([
    ['localhost', 'FQDN'],
    ['mailbox', 'FQDN'],
    ['203.0.113.9', 'IP 地址'],
    ['::1', 'IP 地址'],
  ])('warns about %s without asking DNS', async (host, words) => {
    expect(await hostnameWarning(host, noLookup, ['127.0.0.1'])).toContain(words);
  });
});

describe('calls to a provider', () => {
  /** A loopback server answering every request with `answer`. */
  async function serve(answer: (response: import('node:http').ServerResponse) => void) {
    const server = createServer((_request, response) => answer(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('stops reading an answer larger than the cap', async () => {
    const big = await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`"${'x'.repeat(MAX_RESPONSE_BYTES + 10)}"`);
    });
    try {
      const error = await callApi(big.url, { method: 'GET' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DnsApiError);
      expect((error as DnsApiError).reason).toBe('badResponse');
    } finally {
      await big.stop();
    }
  });

  it('does not follow a redirect (the credentials stay with the configured endpoint)', async () => {
    let followed = false;
    const elsewhere = await serve((response) => {
      followed = true;
      response.end('{}');
    });
    const redirect = await serve((response) => {
      response.writeHead(302, { location: `${elsewhere.url}/steal` });
      response.end();
    });
    try {
      const error = await callApi(redirect.url, {
        method: 'GET',
        headers: { Authorization: 'Bearer secret' },
      }).catch((caught: unknown) => caught);
      expect((error as DnsApiError).reason).toBe('badResponse');
      expect(followed).toBe(false);
    } finally {
      await redirect.stop();
      await elsewhere.stop();
    }
  });
});

describe('setTxtRecords (for TXT records of other features, e.g. ACME DNS-01)', () => {
  it('publishes, keeps and removes exactly the given values through a provider', async () => {
    const standIn = await startDnspodStandIn({ zone: 't.test', keyId: 'AKIDt', secret: 'key-t-0123' });
    try {
      const client = apiClient(
        'dnspod',
        { alidnsUrl: '', dnspodUrl: standIn.url, cloudflareUrl: '' },
        { zone: 't.test', accessKeyId: 'AKIDt', secret: 'key-t-0123' },
      );
      const name = '_acme-challenge.t.test';
      const values = () =>
        standIn.records
          .filter((r) => r.name === name)
          .map((r) => r.value)
          .sort();
      expect(await setTxtRecords(client, name, ['a', 'b'], 60)).toEqual({
        created: 2,
        updated: 0,
        deleted: 0,
      });
      expect(values()).toEqual(['a', 'b']);
      expect(await setTxtRecords(client, name, ['a', 'b'], 60)).toEqual({
        created: 0,
        updated: 0,
        deleted: 0,
      });
      expect(await setTxtRecords(client, name, ['c'], 60)).toEqual({ created: 0, updated: 1, deleted: 1 });
      expect(values()).toEqual(['c']);
      await setTxtRecords(client, name, [], 60);
      expect(values()).toEqual([]);
    } finally {
      await standIn.stop();
    }
  });
});
