import { generateKeyPairSync } from 'node:crypto';
import { dkimSign } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, getRaw } from '../support/api.js';
import { freeDnsPort, type RunningDnsServer, startDnsmasq } from '../support/dns-servers.js';
import { createAddress, createUserWithDomain, inbox, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

// SPF, DKIM and DMARC of mail arriving over SMTP, against dnsmasq on loopback publishing the
// sender domains' records; the test's SMTP client connects from 127.0.0.1.
const SELECTOR = 'sel';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const DOMAINS = {
  /** SPF allows loopback, DKIM key published, p=reject */
  good: 'good.sender.test',
  /** SPF allows only 192.0.2.1, p=reject: mail from loopback is forged */
  strict: 'strict.sender.test',
  /** SPF allows only 192.0.2.1, p=quarantine */
  quarantine: 'quarantine.sender.test',
  /** SPF ~all, no DMARC */
  soft: 'soft.sender.test',
  /** nothing published */
  bare: 'bare.sender.test',
};

async function signed(message: Buffer, domain: string): Promise<Buffer> {
  const result = await dkimSign(message, {
    signingDomain: domain,
    selector: SELECTOR,
    privateKey,
    signatureData: [{ signingDomain: domain, selector: SELECTOR, privateKey }],
  });
  return Buffer.concat([Buffer.from(result.signatures), message]);
}

describe('inbound SPF, DKIM and DMARC', () => {
  let server: TestServer;
  let dns: RunningDnsServer;
  let world: MailWorld;
  let rcpt: string;

  beforeAll(async () => {
    const port = await freeDnsPort();
    dns = await startDnsmasq(
      {
        local: ['sender.test'],
        txt: [
          { name: DOMAINS.good, value: 'v=spf1 ip4:127.0.0.1 -all' },
          { name: `${SELECTOR}._domainkey.${DOMAINS.good}`, value: `v=DKIM1; k=rsa; p=${publicKey}` },
          { name: `_dmarc.${DOMAINS.good}`, value: 'v=DMARC1; p=reject' },
          { name: DOMAINS.strict, value: 'v=spf1 ip4:192.0.2.1 -all' },
          { name: `_dmarc.${DOMAINS.strict}`, value: 'v=DMARC1; p=reject' },
          { name: DOMAINS.quarantine, value: 'v=spf1 ip4:192.0.2.1 -all' },
          { name: `_dmarc.${DOMAINS.quarantine}`, value: 'v=DMARC1; p=quarantine' },
          { name: DOMAINS.soft, value: 'v=spf1 ip4:192.0.2.1 ~all' },
        ],
      },
      port,
    );
    server = await startTestServer({ env: { DNS_SERVERS: dns.address } });
    world = await createUserWithDomain(server, 'mailauth');
    rcpt = (await createAddress(server, world)).address;
  });
  afterAll(() => stopAll(server, dns));

  async function deliver(from: string, content: Buffer) {
    const result = await sendMail(server.smtpPort, { from, to: [rcpt], content });
    return result;
  }

  /** The message with `subject`, in the Inbox or (junk) the Junk folder. */
  async function latest(subject: string, folder: 'inbox' | 'junk' = 'inbox') {
    const data = await inbox(server, world.userToken, `&folder=${folder}&q=${encodeURIComponent(subject)}`);
    const item = data.list.find((mail) => mail.subject === subject);
    if (!item) throw new Error(`no message "${subject}"`);
    return item;
  }

  it('verifies an aligned, DKIM-signed message from an allowed address and records it', async () => {
    const subject = '已签名的邮件';
    const message = simpleMessage(rcpt, subject, '正文', [])
      .toString()
      .replace('tester@sender.example', `boss@${DOMAINS.good}`);
    const result = await deliver(`boss@${DOMAINS.good}`, await signed(Buffer.from(message), DOMAINS.good));
    expect(result.data?.code).toBe(250);
    const item = await latest(subject);
    expect(item.auth).toMatchObject({
      spf: 'pass',
      dkim: 'pass',
      dmarc: 'pass',
      spfDomain: DOMAINS.good,
      dkimDomains: [DOMAINS.good],
      fromDomain: DOMAINS.good,
      policy: 'reject',
    });
    expect(item.spam).toBe(false);
    // The stored raw message starts with our RFC 8601 header; the rest is byte for byte the DATA.
    const raw = await getRaw(server, `user/raw/${item.id}`, { token: world.userToken });
    const text = raw.bytes.toString('utf8');
    expect(text).toMatch(/^Received-SPF: pass|^Authentication-Results: mx\.youju\.test;/);
    expect(text).toContain('Authentication-Results: mx.youju.test;');
    expect(text).toMatch(/spf=pass/);
    expect(text).toMatch(/dkim=pass/);
    expect(text).toMatch(/dmarc=pass/);
    expect(item.size).toBe(raw.bytes.length);
    const detail = await server.api('GET', `user/getEmail?id=${item.id}`, { token: world.userToken });
    expectOk(detail.body);
    expect(detail.body.data.auth.dmarc).toBe('pass');
  });

  it('refuses a forged From under p=reject with 550 5.7.1 and stores nothing', async () => {
    const subject = '伪造的发件人';
    const message = simpleMessage(rcpt, subject, 'x')
      .toString()
      .replace('tester@sender.example', `ceo@${DOMAINS.strict}`);
    const result = await deliver(`ceo@${DOMAINS.strict}`, Buffer.from(message));
    expect(result.data?.code).toBe(550);
    expect(result.data?.text).toContain('5.7.1');
    const data = await inbox(server, world.userToken, `&q=${encodeURIComponent(subject)}`);
    expect(data.list).toHaveLength(0);
  });

  it('keeps forged mail in Junk instead when the operator turns dmarcReject off', async () => {
    const admin = await server.adminToken();
    const off = await server.api('POST', 'user/updateSetting', {
      token: admin,
      body: { system: { dmarcReject: false } },
    });
    expectOk(off.body);
    try {
      const subject = '伪造但保留';
      const message = simpleMessage(rcpt, subject, 'x')
        .toString()
        .replace('tester@sender.example', `ceo@${DOMAINS.strict}`);
      const result = await deliver(`ceo@${DOMAINS.strict}`, Buffer.from(message));
      expect(result.data?.code).toBe(250);
      const item = await latest(subject, 'junk');
      expect(item.spam).toBe(true);
      expect(item.auth).toMatchObject({ spf: 'fail', dkim: 'none', dmarc: 'fail', policy: 'reject' });
    } finally {
      await server.api('POST', 'user/updateSetting', {
        token: admin,
        body: { system: { dmarcReject: true } },
      });
    }
  });

  it('puts p=quarantine failures into Junk', async () => {
    const subject = '隔离策略';
    const message = simpleMessage(rcpt, subject, 'x')
      .toString()
      .replace('tester@sender.example', `a@${DOMAINS.quarantine}`);
    expect((await deliver(`a@${DOMAINS.quarantine}`, Buffer.from(message))).data?.code).toBe(250);
    const item = await latest(subject, 'junk');
    expect(item.spam).toBe(true);
    expect(item.auth).toMatchObject({ spf: 'fail', dmarc: 'fail', policy: 'quarantine' });
  });

  it('accepts softfail and unpublished domains into the inbox, unverified', async () => {
    const soft = simpleMessage(rcpt, '软失败', 'x')
      .toString()
      .replace('tester@sender.example', `a@${DOMAINS.soft}`);
    expect((await deliver(`a@${DOMAINS.soft}`, Buffer.from(soft))).data?.code).toBe(250);
    const softItem = await latest('软失败');
    expect(softItem.spam).toBe(false);
    expect(softItem.auth).toMatchObject({ spf: 'softfail', dkim: 'none', dmarc: 'none' });

    const bare = simpleMessage(rcpt, '没有记录', 'x')
      .toString()
      .replace('tester@sender.example', `a@${DOMAINS.bare}`);
    expect((await deliver(`a@${DOMAINS.bare}`, Buffer.from(bare))).data?.code).toBe(250);
    const bareItem = await latest('没有记录');
    expect(bareItem.spam).toBe(false);
    expect(bareItem.auth).toMatchObject({ spf: 'none', dkim: 'none', dmarc: 'none' });
  });

  it('fails DKIM for a message changed after signing, and does not let a header break the stored one', async () => {
    const subject = '被篡改的邮件';
    const original = simpleMessage(rcpt, subject, '原文')
      .toString()
      .replace('tester@sender.example', `boss@${DOMAINS.good}`);
    const tampered = (await signed(Buffer.from(original), DOMAINS.good)).toString().replace('原文', '改过');
    expect((await deliver(`boss@${DOMAINS.good}`, Buffer.from(tampered))).data?.code).toBe(250);
    const item = await latest(subject);
    // SPF still passes and aligns, so DMARC passes; the signature itself does not verify.
    expect(item.auth).toMatchObject({ spf: 'pass', dmarc: 'pass' });
    // mailauth reports a body that no longer matches its hash as neutral (RFC 6376 section 6.1.3).
    expect(['fail', 'neutral']).toContain(item.auth.dkim);
    expect(item.auth.dkimDomains).toBeUndefined();
    const raw = (await getRaw(server, `user/raw/${item.id}`, { token: world.userToken })).bytes.toString();
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
    // Every line of the header block is a field or a folded continuation: nothing injected.
    for (const line of head.split('\r\n')) expect(line).toMatch(/^([ \t]|[A-Za-z0-9-]+:)/);
  });

  it('leaves mail delivered inside the service unchecked', async () => {
    const sender = (await createAddress(server, world)).address;
    const sent = await server.api('POST', 'user/sendEmail', {
      token: world.userToken,
      body: { from: sender, to: [rcpt], subject: '站内邮件', text: '你好' },
    });
    expectOk(sent.body);
    const item = await waitFor(async () => {
      const data = await inbox(server, world.userToken, `&q=${encodeURIComponent('站内邮件')}`);
      return data.list.find((mail) => mail.subject === '站内邮件');
    });
    expect(item.auth).toEqual({ spf: 'none', dkim: 'none', dmarc: 'none' });
  });
});
