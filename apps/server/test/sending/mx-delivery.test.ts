import { randomBytes } from 'node:crypto';
import { dkimVerify } from 'mailauth';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { splitAddedHeaders } from '../support/smtp-client.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';
import {
  rawOf,
  type SenderWorld,
  senderWorld,
  settled,
  startMxDns,
  startRecordingSmtp,
  upload,
  verifyDkim,
} from './sending-helpers.js';

/**
 * Direct delivery to MX hosts found through a real name server (dnsmasq on loopback): the receiving
 * side is a second Youju server's inbound SMTP, a tiny STARTTLS-capable server on 127.0.0.2, and
 * nothing at all for a domain that does not exist.
 */
describe('delivery to the recipient domain’s MX', () => {
  let receiver: TestServer;
  let sender: TestServer;
  let dns: Awaited<ReturnType<typeof startMxDns>>;
  let tlsMx: Awaited<ReturnType<typeof startRecordingSmtp>>;
  let world: SenderWorld;
  let receiverUser: SenderWorld;

  beforeAll(async () => {
    receiver = await startTestServer();
    receiverUser = await senderWorld(receiver, 'dest', 'dest.test');
    await receiver.api('POST', 'user/createEmail', {
      token: receiverUser.userToken,
      body: { domainId: receiverUser.domainId, localPart: 'lisi' },
    });
    // The MX port is global (OUTBOUND_PORT), so the second MX listens on another loopback address.
    tlsMx = await startRecordingSmtp(
      () => null,
      { hideSTARTTLS: false },
      { host: '127.0.0.2', port: receiver.smtpPort },
    );
    dns = await startMxDns([{ domain: 'dest.test' }, { domain: 'tls.test', ip: '127.0.0.2' }], ['nx.test']);
    sender = await startTestServer({
      env: { DNS_SERVERS: dns.address, OUTBOUND_PORT: String(receiver.smtpPort), QUEUE_POLL_MS: '200' },
    });
    world = await senderWorld(sender, 'sender', 'sender.test');
  });
  afterAll(() => stopAll(sender, receiver, tlsMx, dns));

  it('delivers a Chinese message with an attachment intact and DKIM-verifiable', async () => {
    const attachment = randomBytes(300 * 1024);
    const file = await upload(sender, world.mailboxToken, attachment, '季度报告（终稿）.bin');
    expect(file.status).toBe(200);
    expectOk(file.body);
    const html = '<p>李四你好：</p><p>附件是<b>季度报告</b>，请查收。</p>';
    const sent = await sender.api('POST', 'user/sendEmail', {
      token: world.mailboxToken,
      body: {
        from: world.mailboxAddress,
        to: ['lisi@dest.test'],
        subject: '季度报告 — 请查收',
        html,
        attachments: [file.body.data.id],
      },
    });
    expect(sent.status).toBe(200);
    expectOk(sent.body);
    const item = await settled(sender, world.mailboxToken, sent.body.data.id);
    expect(item.deliveries).toEqual([
      expect.objectContaining({ rcpt: 'lisi@dest.test', status: 'delivered', attempts: 1, lastError: null }),
    ]);
    expect(item.deliveries[0]?.remoteResponse).toMatch(/^250 /);

    const inbox = await receiver.api('GET', 'user/getInbox?address=lisi@dest.test', {
      token: receiverUser.userToken,
    });
    expectOk(inbox.body);
    expect(inbox.body.data.list).toHaveLength(1);
    const received = await rawOf(receiver, receiverUser.userToken, `raw/${inbox.body.data.list[0]?.id}`);
    const original = await rawOf(sender, world.mailboxToken, `sentRaw/${sent.body.data.id}`);
    // Byte for byte: headers, body and attachment as signed and sent, after the receiver's
    // Authentication-Results header (its DNS has no key: the signature is verified below).
    const stored = splitAddedHeaders(received);
    expect(stored.message.equals(original)).toBe(true);
    expect(stored.added.toString()).toContain('Authentication-Results: ');

    const parsed = await simpleParser(received);
    expect(parsed.subject).toBe('季度报告 — 请查收');
    expect(parsed.from?.value).toEqual([{ address: world.mailboxAddress, name: '' }]);
    expect(parsed.html).toBe(html);
    expect(parsed.text?.trim()).toBe('李四你好：\n\n附件是季度报告，请查收。');
    expect(parsed.messageId).toMatch(/@sender\.test>$/);
    expect(parsed.date?.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]?.filename).toBe('季度报告（终稿）.bin');
    expect(parsed.attachments[0]?.content.equals(attachment)).toBe(true);

    // An independent verifier (mailauth) checks the signature against the published record.
    const dkim = await sender.api('GET', `user/getDkim?id=${world.domainId}`, { token: world.userToken });
    expectOk(dkim.body);
    const { record } = dkim.body.data;
    const result = await verifyDkim(received, record);
    expect(result.lookups).toContain(`TXT ${record.name}`);
    expect(result.results).toHaveLength(1);
    expect(result.results[0]).toMatchObject({
      signingDomain: 'sender.test',
      selector: dkim.body.data.selector,
      status: { result: 'pass' },
    });
    // A changed byte breaks it: the check is real.
    const tampered = Buffer.from(received.toString('latin1').replace('Subject:', 'Subject: X'), 'latin1');
    const broken = await dkimVerify(tampered, {
      resolver: async () => [record.value.match(/.{1,255}/g) ?? []],
    });
    expect(broken.results[0]?.status.result).toBe('fail');
  });

  it('upgrades to TLS when the MX offers STARTTLS', async () => {
    const sent = await sender.api('POST', 'user/sendEmail', {
      token: world.userToken,
      body: { from: `ops@${world.domain}`, to: ['wangwu@tls.test'], subject: 'TLS', text: '加密传输' },
    });
    expectOk(sent.body);
    const item = await settled(sender, world.userToken, sent.body.data.id);
    expect(item.status).toBe('delivered');
    const message = await waitFor(() => tlsMx.received.at(-1), {
      timeoutMs: 20_000,
      what: 'the message at the STARTTLS MX',
    });
    expect(message).toMatchObject({
      mailFrom: `ops@${world.domain}`,
      rcptTo: ['wangwu@tls.test'],
      secure: true,
    });
  });

  it('fails at once on a 5xx answer and on a domain that does not exist', async () => {
    const sent = await sender.api('POST', 'user/sendEmail', {
      token: world.userToken,
      body: {
        from: `ops@${world.domain}`,
        to: ['nobody@dest.test', 'x@nx.test'],
        subject: '退信',
        text: '.',
      },
    });
    expectOk(sent.body);
    const item = await settled(sender, world.userToken, sent.body.data.id);
    expect(item.status).toBe('failed');
    const byRcpt = Object.fromEntries(item.deliveries.map((d) => [d.rcpt, d]));
    expect(byRcpt['nobody@dest.test']).toMatchObject({ status: 'failed', attempts: 1 });
    expect(byRcpt['nobody@dest.test']?.lastError).toMatch(/^550 /);
    expect(byRcpt['x@nx.test']).toMatchObject({ status: 'failed', attempts: 1 });
    expect(byRcpt['x@nx.test']?.lastError).toContain('不存在');
  });
});
