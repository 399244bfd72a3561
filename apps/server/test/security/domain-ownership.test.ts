import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { senderWorld, settled, startMxDns, startRecordingSmtp } from '../sending/sending-helpers.js';
import { expectDefined, expectOk } from '../support/api.js';
import { freeDnsPort, type RunningDnsServer, startDnsmasq } from '../support/dns-servers.js';
import { createUser } from '../support/fixtures.js';
import { SmtpClient } from '../support/smtp-client.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Domain hijack: a system user claims a domain that is not theirs (someone's real domain, a public
 * suffix, the server's own host name, a name under or above another account's domain). Replayed
 * against the real server: claims are refused or stay pending until a TXT record proves control, and a
 * pending domain takes no mail and no addresses, while other users' mail to it goes to its real MX.
 */
describe('domain ownership', () => {
  let server: TestServer;
  let admin: string;
  let dnsPort: number;
  let dns: RunningDnsServer | null = null;
  let mx: Awaited<ReturnType<typeof startRecordingSmtp>>;
  let mxDns: Awaited<ReturnType<typeof startMxDns>>;

  beforeAll(async () => {
    // The real MX of the victim's domain: a recording SMTP server on 127.0.0.2, found through dnsmasq.
    mx = await startRecordingSmtp(() => null, {}, { host: '127.0.0.2' });
    mxDns = await startMxDns([{ domain: 'victim.test', ip: '127.0.0.2' }]);
    dnsPort = await freeDnsPort();
    server = await startTestServer({
      env: {
        MAIL_HOSTNAME: 'mx.youju-host.test',
        // verifyDomain asks the dnsmasq started per test on this port; MX look-ups go to mxDns.
        DNS_SERVERS: `127.0.0.1:${dnsPort},${mxDns.address}`,
        OUTBOUND_PORT: String(mx.port),
        QUEUE_POLL_MS: '200',
      },
    });
    admin = await server.adminToken();
  });
  afterAll(() => stopAll(server, dns, mx, mxDns));

  async function serveTxt(name: string, value: string | null): Promise<void> {
    await dns?.stop();
    dns = await startDnsmasq(
      { local: [name.split('.').slice(-2).join('.')], txt: value ? [{ name, value }] : [] },
      dnsPort,
    );
  }

  it('refuses public suffixes, the host name and names under it to a user', async () => {
    const user = await createUser(server, 'suffix-user');
    // a bare top-level name is not even a mail domain (400)
    expect(
      (await server.api('POST', 'user/addDomain', { token: user.token, body: { name: 'com' } })).status,
    ).toBe(400);
    for (const name of ['co.uk', 'github.io', 'com.cn', 'mx.youju-host.test', 'a.mx.youju-host.test']) {
      const { status, body } = await server.api('POST', 'user/addDomain', {
        token: user.token,
        body: { name },
      });
      expect(status, name).toBe(403);
      expect(body.msg, name).toMatch(/公共后缀|主机名/);
    }
  });

  it('refuses a name equal to, under or above another account’s domain', async () => {
    const alice = await createUser(server, 'alice-own');
    const mallory = await createUser(server, 'mallory-own');
    const added = await server.api('POST', 'user/addDomain', {
      token: alice.token,
      body: { name: 'b.alice.test' },
    });
    expect(added.body.data?.status).toBe('pending');
    for (const name of ['b.alice.test', 'x.b.alice.test', 'alice.test']) {
      const { status } = await server.api('POST', 'user/addDomain', { token: mallory.token, body: { name } });
      expect(status, name).toBe(409);
    }
    // the owner may add names of its own beside it
    const own = await server.api('POST', 'user/addDomain', {
      token: alice.token,
      body: { name: 'c.b.alice.test' },
    });
    expectOk(own.body);
  });

  it('lets only one of two accounts racing for overlapping names win', async () => {
    const racers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => createUser(server, `racer-${index}`)),
    );
    const answers = await Promise.all(
      racers.map((racer, index) =>
        server.api('POST', 'user/addDomain', {
          token: racer.token,
          body: { name: index % 2 === 0 ? 'race.test' : 'a.race.test' },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.body.error === 0)).toHaveLength(1);
  });

  it('keeps a claimed domain pending: no mail, no addresses, and others’ mail goes to its real MX', async () => {
    const mallory = await createUser(server, 'mallory-victim');
    const claim = await server.api('POST', 'user/addDomain', {
      token: mallory.token,
      body: { name: 'victim.test', publicRegistration: true },
    });
    expectOk(claim.body);
    expect(claim.body.data).toMatchObject({
      status: 'pending',
      verification: { name: '_youju.victim.test', type: 'TXT' },
    });
    expect(claim.body.data.verification?.value).toMatch(/^youju-verify=[0-9a-f]{32}$/);
    const createEmail = await server.api('POST', 'user/createEmail', {
      token: mallory.token,
      body: { domainId: claim.body.data.id, localPart: 'ceo' },
    });
    expect(createEmail.status).toBe(403);
    expect(createEmail.body.msg).toMatch(/验证/);
    const createAccount = await server.api('POST', 'user/createEmailAccount', {
      token: mallory.token,
      body: { domainId: claim.body.data.id, localPart: 'ceo', password: 'secret-pass-1' },
    });
    expect(createAccount.status).toBe(403);
    const register = await server.api('POST', 'regEmail', { body: { domainId: claim.body.data.id } });
    expect(register.body.error).not.toBe(0);
    const open = await server.api('GET', 'getArrDomains');
    expect(open.body.data?.map((domain) => domain.name)).not.toContain('victim.test');

    // Inbound: 550 5.1.2 for the pending domain's addresses.
    const client = await SmtpClient.connect(server.smtpPort);
    expect((await client.read()).code).toBe(220);
    await client.command('EHLO sender.example');
    await client.command('MAIL FROM:<someone@sender.example>');
    const rcpt = await client.command('RCPT TO:<ceo@victim.test>');
    expect(rcpt.code).toBe(550);
    expect(rcpt.text).toMatch(/^5\.1\.2/);
    await client.quit();

    // Outbound from another user: to the MX of victim.test, never into a local mailbox.
    const sender = await senderWorld(server, 'honest', 'honest.test');
    const sent = await server.api('POST', 'user/sendEmail', {
      token: sender.mailboxToken,
      body: { from: sender.mailboxAddress, to: ['ceo@victim.test'], subject: '合同', text: '请查收' },
    });
    expectOk(sent.body);
    await settled(server, sender.mailboxToken, sent.body.data.id);
    await waitFor(() => mx.received.length > 0, { what: 'the message at the real MX of victim.test' });
    expect(mx.received[0]?.rcptTo).toEqual(['ceo@victim.test']);
  });

  it('activates a domain only when its TXT record holds the value', async () => {
    const owner = await createUser(server, 'real-owner');
    const added = await server.api('POST', 'user/addDomain', {
      token: owner.token,
      body: { name: 'mine.verify.test' },
    });
    expectOk(added.body);
    const { id } = added.body.data;
    const verification = expectDefined(added.body.data.verification, 'the verification record');
    const verify = () => server.api('POST', 'user/verifyDomain', { token: owner.token, body: { id } });

    await serveTxt(verification.name, null);
    const missing = await verify();
    expect(missing.status).toBe(409);
    expect(missing.body.msg).toContain('未找到 _youju.mine.verify.test 的 TXT 记录');

    await serveTxt(verification.name, 'youju-verify=0000');
    const wrong = await verify();
    expect(wrong.status).toBe(409);
    expect(wrong.body.msg).toContain('youju-verify=0000');

    // another account cannot verify (or even see) it
    const stranger = await createUser(server, 'stranger-verify');
    const foreign = await server.api('POST', 'user/verifyDomain', { token: stranger.token, body: { id } });
    expect(foreign.status).toBe(404);

    await serveTxt(verification.name, verification.value);
    const right = await verify();
    expect(right.body.data?.status).toBe('active');
    expect(right.body.data?.verification).toBeUndefined();
    const address = await server.api('POST', 'user/createEmail', {
      token: owner.token,
      body: { domainId: id, localPart: 'hello' },
    });
    expectOk(address.body);
  });

  it('lets an unproven claim lapse after a week, and never lets the claimant send as the domain', async () => {
    const squatter = await createUser(server, 'squatter');
    const owner = await createUser(server, 'late-owner');
    const claim = await server.api('POST', 'user/addDomain', {
      token: squatter.token,
      body: { name: 'squatted.test' },
    });
    expectOk(claim.body);
    const spoof = await server.api('POST', 'user/sendEmail', {
      token: squatter.token,
      body: { from: 'ceo@squatted.test', to: ['someone@example.com'], subject: 'x', text: 'y' },
    });
    expect(spoof.status).toBe(403);
    expect(
      (await server.api('POST', 'user/addDomain', { token: owner.token, body: { name: 'squatted.test' } }))
        .status,
    ).toBe(409);
    await server.app.database.db
      .updateTable('domains')
      .set({ created_at: Date.now() - 8 * 24 * 3_600_000 })
      .where('id', '=', claim.body.data.id)
      .execute();
    const taken = await server.api('POST', 'user/addDomain', {
      token: owner.token,
      body: { name: 'squatted.test' },
    });
    expectOk(taken.body);
    expect(taken.body.data.ownerId).toBe(owner.id);
  });

  it('makes an administrator’s domain active at once', async () => {
    const added = await server.api('POST', 'user/addDomain', {
      token: admin,
      body: { name: 'admin-own.test' },
    });
    expect(added.body.data?.status).toBe('active');
    expect(added.body.data?.verification).toBeUndefined();
  });
});
