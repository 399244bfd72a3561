import { generateKeyPairSync } from 'node:crypto';
import { dkimSign, dkimVerify } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMessage, startRecordingSmtp } from '../sending/sending-helpers.js';
import { expectOk } from '../support/api.js';
import { addDomain, createUser, inbox, uniqueUsername } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Mail forwarding end to end: mail comes in over the real SMTP listener, the copy leaves through
 * the durable outbound queue to a real SMTP server on loopback (the relay), with the SRS0 envelope
 * sender, the received bytes unchanged behind two added fields (the sender's DKIM signature still
 * verifies); bounces to the SRS0 address go back; loops, the sending limits and the anonymous-send
 * policy stop copies (never the local copy); nobody sets forwarding on another's mailbox.
 */
describe('mail forwarding', () => {
  let server: TestServer;
  let admin: string;
  let relay: Awaited<ReturnType<typeof startRecordingSmtp>>;
  let owner: { id: number; token: string };
  let domain: { id: number; name: string };

  beforeAll(async () => {
    ({ server, admin } = await startTestServerAsAdmin({ env: { QUEUE_POLL_MS: '200' } }));
    relay = await startRecordingSmtp();
    await server.app.services.settings.update({ relayUrl: `smtp://127.0.0.1:${relay.port}` });
    const username = uniqueUsername('fwd');
    owner = await createUser(server, username);
    domain = await addDomain(server, owner.token, `${username}.youju.test`, { publicRegistration: true });
  });
  afterAll(async () => {
    await server?.close();
    await relay?.close();
  });

  /** A mailbox account on the owner's domain, logged in. */
  async function account(localPart: string): Promise<{ address: string; token: string }> {
    const created = await server.api('POST', 'user/createEmailAccount', {
      token: owner.token,
      body: { domainId: domain.id, localPart, password: 'forward-pass-1' },
    });
    expectOk(created.body);
    const login = await server.api('POST', 'loginEmail', {
      body: { email: `${localPart}@${domain.name}`, password: 'forward-pass-1' },
    });
    expectOk(login.body);
    return { address: login.body.data.email, token: login.body.data.token };
  }

  async function setForward(
    token: string,
    body: { address: string; forwardTo: string | null; keepCopy?: boolean; enabled?: boolean },
  ) {
    return server.api('POST', 'user/setForward', { token, body });
  }

  async function getForward(token: string, address: string) {
    const answer = await server.api('GET', `user/getForward?address=${encodeURIComponent(address)}`, {
      token,
    });
    expectOk(answer.body);
    return answer.body.data;
  }

  /** Waits for the relay to have received a copy for `rcpt` whose bytes contain `marker`. */
  async function copyFor(rcpt: string, marker: string): Promise<ReceivedMessage> {
    return waitFor(
      async () =>
        relay.received.find((message) => message.rcptTo.includes(rcpt) && message.data.includes(marker)),
      { timeoutMs: 20_000, intervalMs: 100, what: `a forwarded copy to ${rcpt}` },
    );
  }

  function copiesFor(rcpt: string): ReceivedMessage[] {
    return relay.received.filter((message) => message.rcptTo.includes(rcpt));
  }

  async function smtpIn(to: string, content: Buffer, from = 'sender@origin.example') {
    const result = await sendMail(server.smtpPort, { from, to: [to], content });
    expect(result.data?.code).toBe(250);
    return result;
  }

  it('forwards a DKIM-signed message unchanged with an SRS0 envelope sender, keeping the local copy', async () => {
    const box = await account('alice');
    const target = `alice-elsewhere-${Date.now()}@example.net`;
    const set = await setForward(box.token, { address: box.address, forwardTo: target });
    expectOk(set.body);
    expect(set.body.data).toMatchObject({
      address: box.address,
      forwardTo: target,
      keepCopy: true,
      enabled: true,
    });

    // The original, signed by its sender's domain.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const unsigned = simpleMessage(box.address, 'forward-dkim', 'Hello from origin.\r\nSecond line.', [
      'Message-ID: <forward-dkim@origin.example>',
    ]);
    const signing = {
      signingDomain: 'origin.example',
      selector: 'sel',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      canonicalization: 'relaxed/relaxed',
    };
    // mailauth signs with the entries of signatureData (its types also ask for one at the top).
    const { signatures } = await dkimSign(unsigned, { ...signing, signatureData: [signing] });
    expect(signatures).toMatch(/^DKIM-Signature: /);
    const original = Buffer.concat([Buffer.from(signatures), unsigned]);
    await smtpIn(box.address, original);

    const copy = await copyFor(target, 'forward-dkim');
    expect(copy.rcptTo).toEqual([target]);
    expect(copy.mailFrom).toMatch(
      new RegExp(
        `^SRS0=[A-Z2-7]{8}=[A-Z2-7]{2}=origin\\.example=sender@${domain.name.replace(/\./g, '\\.')}$`,
      ),
    );
    // Two fields in front, then the received bytes exactly.
    const end = copy.data.indexOf(original);
    expect(end).toBeGreaterThan(0);
    expect(copy.data.subarray(end).equals(original)).toBe(true);
    const added = copy.data.subarray(0, end).toString();
    expect(added).toMatch(
      new RegExp(`^X-Youju-Forwarded: ${box.address}\r\nReceived: from mx\\.youju\\.test`),
    );
    const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const { results } = await dkimVerify(copy.data, {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === 'sel._domainkey.origin.example') return [[`v=DKIM1; k=rsa; p=${der}`]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(results[0]?.status.result).toBe('pass');

    // The local copy is there, and the forwarded copy is nobody's sent mail.
    const local = await inbox(server, box.token);
    expect(local.list.map((item) => item.subject)).toContain('forward-dkim');
    const sent = await server.api('GET', 'user/getSentEmail?pageSize=100', { token: box.token });
    expectOk(sent.body);
    expect(sent.body.data.total).toBe(0);

    // A bounce to the SRS0 address goes back to the original sender, with the empty sender.
    const bounce = simpleMessage(copy.mailFrom, 'Undelivered Mail Returned to Sender', 'bounce-marker-1');
    const back = await sendMail(server.smtpPort, { from: '', to: [copy.mailFrom], content: bounce });
    expect(back.rcpt[0]?.code).toBe(250);
    expect(back.data?.code).toBe(250);
    const returned = await copyFor('sender@origin.example', 'bounce-marker-1');
    expect(returned.mailFrom).toBe('');
    // Only bounces go back: other mail to an SRS0 address would make us an open relay to its sender.
    const notBounce = await sendMail(server.smtpPort, {
      from: 'spammer@elsewhere.example',
      to: [copy.mailFrom],
      content: bounce,
    });
    expect(notBounce.rcpt[0]?.code).toBe(550);
    // A forged or damaged SRS0 address is an unknown recipient.
    const forged = copy.mailFrom.replace(/^SRS0=[A-Z2-7]{2}/, 'SRS0=AA');
    const refused = await sendMail(server.smtpPort, { from: '', to: [forged], content: bounce });
    expect(refused.rcpt[0]?.code).toBe(550);
  });

  it('stops loops: our own mark, too many hops, bounces, and mail from the target itself', async () => {
    const box = await account('loop');
    const target = `loop-target-${Date.now()}@example.net`;
    expectOk((await setForward(box.token, { address: box.address, forwardTo: target })).body);

    const cases: { content: Buffer; from?: string; reason: RegExp }[] = [
      {
        content: simpleMessage(box.address, 'loop-marked', 'x', ['X-Youju-Forwarded: someone@else.example']),
        reason: /已经被本站转发过/,
      },
      {
        content: simpleMessage(
          box.address,
          'loop-hops',
          'x',
          Array.from(
            { length: 50 },
            (_, i) =>
              `Received: from hop${i}.example by hop${i + 1}.example; Thu, 26 Nov 2026 10:00:00 +0000`,
          ),
        ),
        reason: /经过 50 次中转/,
      },
      { content: simpleMessage(box.address, 'loop-bounce', 'x'), from: '', reason: /退信/ },
      { content: simpleMessage(box.address, 'loop-self', 'x'), from: target, reason: /来自转发目标地址本身/ },
    ];
    for (const { content, from, reason } of cases) {
      await smtpIn(box.address, content, from);
      // Decided in the transaction that stored the message: already recorded when 250 came.
      expect((await getForward(box.token, box.address)).lastSkipped?.reason).toMatch(reason);
    }
    // Every local copy is there; a message that may be forwarded still goes, after them all.
    await smtpIn(box.address, simpleMessage(box.address, 'loop-fine', 'x'));
    await copyFor(target, 'loop-fine');
    expect(copiesFor(target)).toHaveLength(1);
    const subjects = (await inbox(server, box.token)).list.map((item) => item.subject);
    for (const subject of ['loop-marked', 'loop-hops', 'loop-bounce', 'loop-self', 'loop-fine']) {
      expect(subjects).toContain(subject);
    }
  });

  it('counts copies against sendPerHour: past it the copy stays local and the reason is recorded', async () => {
    const box = await account('limited');
    const target = `limited-${Date.now()}@example.net`;
    expectOk(
      (await setForward(box.token, { address: box.address, forwardTo: target, keepCopy: false })).body,
    );
    await server.app.services.settings.update({ sendPerHour: 2 });
    try {
      for (const n of [1, 2, 3]) await smtpIn(box.address, simpleMessage(box.address, `limited-${n}`, 'x'));
      await copyFor(target, 'limited-2');
      expect((await getForward(box.token, box.address)).lastSkipped?.reason).toMatch(
        /每小时发信上限（2 封）/,
      );
      // keepCopy off: the forwarded ones are not kept, the one over the limit is (never lost).
      const subjects = (await inbox(server, box.token)).list.map((item) => item.subject);
      expect(subjects).toEqual(['limited-3']);
      expect(copiesFor(target).map((copy) => copy.data.includes('limited-3'))).toEqual([false, false]);
      // The same allowance as sending: the mailbox cannot send now either.
      const sending = await server.api('POST', 'user/sendEmail', {
        token: box.token,
        body: { from: box.address, to: ['x@example.net'], subject: 'after', text: 'x' },
      });
      expect(sending.status).toBe(429);
    } finally {
      await server.app.services.settings.update({ sendPerHour: 30 });
    }
  });

  it('refuses bad targets, and forwarding out of temporary mailboxes unless anonymousSend is on', async () => {
    const box = await account('checks');
    for (const forwardTo of [
      'not-an-address',
      'a@b',
      `someone@${domain.name}`,
      box.address,
      'x y@example.net',
    ]) {
      const answer = await setForward(box.token, { address: box.address, forwardTo });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(400);
    }
    const temporary = await server.api('POST', 'regEmail', { body: { domainId: domain.id } });
    expectOk(temporary.body);
    const temp = { token: temporary.body.data.token, address: temporary.body.data.email };
    const refused = await setForward(temp.token, { address: temp.address, forwardTo: 'temp@example.net' });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/不能转发到站外/);
    await server.api('POST', 'user/updateSetting', {
      token: admin,
      body: { system: { anonymousSend: true } },
    });
    try {
      expectOk((await setForward(temp.token, { address: temp.address, forwardTo: 'temp@example.net' })).body);
    } finally {
      await server.api('POST', 'user/updateSetting', {
        token: admin,
        body: { system: { anonymousSend: false } },
      });
    }
    // Turned off again: what was set stays, but no copy leaves (recorded), the mail is kept.
    await smtpIn(temp.address, simpleMessage(temp.address, 'temp-mail', 'x'));
    expect((await getForward(temp.token, temp.address)).lastSkipped?.reason).toMatch(/不能把邮件转发到站外/);
    expect((await inbox(server, temp.token)).list.map((item) => item.subject)).toEqual(['temp-mail']);
  });

  it('lets only the mailbox, its domain owner and administrators see or change its forwarding', async () => {
    const box = await account('owned');
    const other = await account('other');
    const stranger = await createUser(server, uniqueUsername('stranger'));
    for (const token of [other.token, stranger.token]) {
      const read = await server.api('GET', `user/getForward?address=${box.address}`, { token });
      expect(read.status).toBe(404);
      const write = await setForward(token, { address: box.address, forwardTo: 'steal@example.net' });
      expect(write.status).toBe(404);
    }
    expect((await getForward(box.token, box.address)).forwardTo).toBeNull();
    // The domain's owner and an administrator manage it.
    expectOk((await setForward(owner.token, { address: box.address, forwardTo: 'own@example.net' })).body);
    expectOk(
      (await setForward(admin, { address: box.address, forwardTo: 'admin@example.net', enabled: false }))
        .body,
    );
    expect(await getForward(box.token, box.address)).toMatchObject({
      forwardTo: 'admin@example.net',
      enabled: false,
    });
    // Removed with forwardTo null.
    expectOk((await setForward(box.token, { address: box.address, forwardTo: null })).body);
    expect((await getForward(owner.token, box.address)).forwardTo).toBeNull();
    // Without a session: 401.
    expect((await server.api('GET', `user/getForward?address=${box.address}`)).status).toBe(401);
  });
});
