import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { authenticate, dkimSign, sealMessage } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCachingResolver,
  createInboundAuthenticator,
  type NetworkOrigin,
} from '../../src/modules/mail/inbound-auth.js';
import { type RunningDnsServer, startDnsmasq } from '../support/dns-servers.js';

// inbound-auth composes mailauth's `authenticate` from its parts (DKIM, SPF, ARC, DMARC) so that
// the top module's BIMI code is never loaded. Here the composition is held to mailauth's own
// `authenticate` on the same messages and the same DNS (dnsmasq on loopback): the same verdicts
// and, byte for byte, the same header fields, for signed and unsigned mail, a forged From, an ARC
// chain, a missing From, the null sender and an address as HELO name.
const SELECTOR = 'sel';
const MTA = 'mx.youju.test';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const GOOD = 'good.parts.test';
const STRICT = 'strict.parts.test';
const FORWARDER = 'forwarder.parts.test';

function message(from: string, subject: string, extra = ''): Buffer {
  return Buffer.from(
    `${from ? `From: <${from}>\r\n` : ''}To: <rcpt@example.test>\r\nSubject: ${subject}\r\n` +
      `Message-ID: <${subject}@parts.test>\r\nDate: Thu, 27 Nov 2025 10:00:00 +0000\r\n${extra}` +
      `MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello, ${subject}.\r\n`,
  );
}

async function signed(raw: Buffer, domain: string): Promise<Buffer> {
  const result = await dkimSign(raw, {
    signingDomain: domain,
    selector: SELECTOR,
    privateKey,
    signatureData: [{ signingDomain: domain, selector: SELECTOR, privateKey }],
  });
  return Buffer.concat([Buffer.from(result.signatures), raw]);
}

describe('inbound authentication composed from mailauth parts', () => {
  let dns: RunningDnsServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'youju-auth-parts-'));
    dns = await startDnsmasq({
      local: ['parts.test'],
      txt: [
        { name: GOOD, value: 'v=spf1 ip4:127.0.0.1 ip6:::1 -all' },
        { name: `${SELECTOR}._domainkey.${GOOD}`, value: `v=DKIM1; k=rsa; p=${publicKey}` },
        { name: `_dmarc.${GOOD}`, value: 'v=DMARC1; p=reject' },
        { name: STRICT, value: 'v=spf1 ip4:192.0.2.1 -all' },
        { name: `_dmarc.${STRICT}`, value: 'v=DMARC1; p=quarantine' },
        { name: FORWARDER, value: 'v=spf1 ip4:127.0.0.1 -all' },
        { name: `${SELECTOR}._domainkey.${FORWARDER}`, value: `v=DKIM1; k=rsa; p=${publicKey}` },
      ],
    });
  });
  afterAll(async () => {
    await dns?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function cases(): Promise<Array<{ name: string; raw: Buffer; origin: NetworkOrigin }>> {
    const local = { ip: '127.0.0.1', helo: 'client.parts.test' };
    const aligned = await signed(message(`boss@${GOOD}`, 'aligned'), GOOD);
    // Forwarded by FORWARDER, which sealed it (RFC 8617) and signed it; the original signature broke.
    const forwarded = Buffer.concat([
      await sealMessage(aligned, {
        signingDomain: FORWARDER,
        selector: SELECTOR,
        privateKey,
        ...({ i: 1, cv: 'none', authResults: `mx.${FORWARDER}; spf=pass smtp.mailfrom=${GOOD}` } as object),
        signTime: new Date('2025-11-27T10:00:00Z'),
      }),
      aligned,
    ]);
    return [
      { name: 'aligned and signed', raw: aligned, origin: { ...local, mailFrom: `boss@${GOOD}` } },
      {
        name: 'changed after signing',
        raw: Buffer.from(aligned.toString('latin1').replace('Hello, aligned.', 'Pay me.'), 'latin1'),
        origin: { ...local, mailFrom: `boss@${GOOD}` },
      },
      {
        name: 'forged From',
        raw: message(`ceo@${STRICT}`, 'forged'),
        origin: { ...local, mailFrom: `ceo@${STRICT}` },
      },
      { name: 'ARC chain', raw: forwarded, origin: { ...local, mailFrom: `list@${FORWARDER}` } },
      { name: 'no From field', raw: message('', 'nofrom'), origin: { ...local, mailFrom: `boss@${GOOD}` } },
      { name: 'null sender', raw: message(`boss@${GOOD}`, 'bounce'), origin: { ...local, mailFrom: '' } },
      {
        name: 'address as HELO, IPv6, mapped IPv4',
        raw: message(`boss@${GOOD}`, 'v6'),
        origin: { ip: '::ffff:127.0.0.1', helo: '', mailFrom: `boss@${GOOD}` },
      },
      {
        name: 'IPv6 client',
        raw: message(`boss@${GOOD}`, 'ipv6'),
        origin: { ip: '::1', helo: '[::1]', mailFrom: `x@${GOOD}` },
      },
    ];
  }

  it('gives the verdicts and header fields of mailauth’s authenticate', async () => {
    const ours = createInboundAuthenticator({ dnsServers: [dns.address], mailHostname: MTA });
    const resolver = createCachingResolver([dns.address]);
    const all = await cases();
    for (const [index, { name, raw, origin }] of all.entries()) {
      const verdict = await ours.check(raw, origin);
      const theirs = await authenticate(raw, {
        ip: origin.ip.replace(/^::ffff:/i, ''),
        helo: origin.helo,
        sender: origin.mailFrom,
        mta: MTA,
        resolver,
        disableBimi: true,
      });
      expect(verdict.header, name).toBe(theirs.headers);
      expect(verdict.auth.spf, name).toBe(theirs.spf ? theirs.spf.status.result : 'none');
      expect(verdict.auth.dmarc, name).toBe(theirs.dmarc ? theirs.dmarc.status.result : 'none');
      // Through the spool file (a stream) as well as from memory.
      const file = join(dir, `${index}.eml`);
      await writeFile(file, raw);
      expect((await ours.check(file, origin)).header, `${name} (file)`).toBe(theirs.headers);
    }
    const verdicts = await Promise.all(all.map((c) => ours.check(c.raw, c.origin)));
    // The cases cover what they mean to: a pass, a broken signature, DMARC failures, ARC.
    expect(verdicts[0]?.auth).toMatchObject({ spf: 'pass', dkim: 'pass', dmarc: 'pass' });
    expect(verdicts[1]?.auth.dkim).not.toBe('pass'); // mailauth: body hash mismatch is neutral
    expect(verdicts[2]).toMatchObject({ junk: true, auth: { dmarc: 'fail', policy: 'quarantine' } });
    expect(verdicts[3]?.header).toMatch(/arc=pass/);
  });

  it('never loads mailauth’s top module (its BIMI code: undici, pkijs)', async () => {
    // A fresh process (this one loaded mailauth whole above): the built module checks a message,
    // then lists the CommonJS files it loaded.
    const built = fileURLToPath(new URL('../../dist/modules/mail/inbound-auth.js', import.meta.url));
    const script = `
      const { createRequire } = await import('node:module');
      const auth = await import(${JSON.stringify(built)});
      const check = auth.createInboundAuthenticator({ dnsServers: [${JSON.stringify(dns.address)}], mailHostname: 'mx' });
      const verdict = await check.check(Buffer.from('From: <a@${GOOD}>\\r\\nSubject: x\\r\\n\\r\\nx\\r\\n'), { ip: '127.0.0.1', helo: 'h', mailFrom: 'a@${GOOD}' });
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ spf: verdict.auth.spf, loaded }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    const { spf, loaded } = JSON.parse(stdout) as { spf: string; loaded: string[] };
    expect(spf).toBe('pass');
    expect(loaded.some((file) => /mailauth[/\\]lib[/\\]spf[/\\]/.test(file))).toBe(true);
    expect(
      loaded.filter((file) =>
        /mailauth[/\\]lib[/\\](mailauth|bimi[/\\])|[/\\](undici|pkijs|asn1js)[/\\]/.test(file),
      ),
    ).toEqual([]);
  });
});
