import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { freePort } from '../support/ports.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';
import {
  rawOf,
  type SenderWorld,
  senderWorld,
  settled,
  startMxDns,
  upload,
  verifyDkim,
} from './sending-helpers.js';

const POSTFIX = '/usr/sbin/postfix';
/** Postfix needs root to start its master (it drops to the postfix user itself). */
const canRunPostfix = existsSync(POSTFIX) && process.getuid?.() === 0;

function uidOf(name: string): number {
  return Number(execFileSync('id', ['-u', name]).toString().trim());
}
function gidOf(name: string): number {
  return Number(execFileSync('id', ['-g', name]).toString().trim());
}

/**
 * A private Postfix instance (Debian's postfix package, not its system configuration): its own
 * configuration, queue and data directories in a temporary folder, smtpd on a free loopback port,
 * the virtual delivery agent writing a Maildir for the test domain, its log on stdout.
 */
async function startPostfix(
  domain: string,
): Promise<{ port: number; maildir: string; stop(): Promise<void> }> {
  // The test servers of this worker set the process umask to 077 (lib/data-dir.ts), which would make
  // these folders and files, and what Postfix itself creates, unreadable to its unprivileged
  // daemons ("Postfix integrity check failed"). Postfix gets the usual 022 until it has started.
  const umask = process.umask(0o022);
  try {
    return await setUpPostfix(domain);
  } finally {
    process.umask(umask);
  }
}

async function setUpPostfix(
  domain: string,
): Promise<{ port: number; maildir: string; stop(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'youju-postfix-'));
  // The postfix user must be able to reach its queue and data directories.
  await chmod(root, 0o755);
  const etc = join(root, 'etc');
  const data = join(root, 'data');
  const vmail = join(root, 'vmail');
  await mkdir(etc);
  await mkdir(join(root, 'queue'));
  await mkdir(data);
  await mkdir(vmail);
  await chown(data, uidOf('postfix'), gidOf('postfix'));
  await chown(vmail, uidOf('nobody'), gidOf('nobody'));
  const port = await freePort();
  const master = (await readFile('/etc/postfix/master.cf', 'utf8'))
    .split('\n')
    .filter((line) => line.trim() && !line.trimStart().startsWith('#'))
    .map((line) => (/^smtp\s+inet\s/.test(line) ? `127.0.0.1:${port} inet n - n - - smtpd` : line))
    .join('\n');
  await writeFile(join(etc, 'master.cf'), `${master}\n`);
  await writeFile(
    join(etc, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${join(root, 'queue')}`,
      `data_directory = ${data}`,
      'command_directory = /usr/sbin',
      'daemon_directory = /usr/lib/postfix/sbin',
      'meta_directory = /etc/postfix',
      'shlib_directory = /usr/lib/postfix',
      'mail_owner = postfix',
      'setgid_group = postdrop',
      `myhostname = mx.${domain}`,
      `mydomain = ${domain}`,
      'mydestination =',
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mynetworks = 127.0.0.0/8',
      `virtual_mailbox_domains = ${domain}`,
      `virtual_mailbox_base = ${vmail}`,
      'virtual_mailbox_maps = static:mail/',
      `virtual_uid_maps = static:${uidOf('nobody')}`,
      `virtual_gid_maps = static:${gidOf('nobody')}`,
      'virtual_minimum_uid = 100',
      // Postfix only writes logs below maillog_file_prefixes (default /var and /dev/stdout).
      `maillog_file_prefixes = ${root}`,
      `maillog_file = ${join(root, 'maillog')}`,
      `smtpd_banner = mx.${domain} ESMTP Postfix`,
      'biff = no',
      '',
    ].join('\n'),
  );
  // stdout stays a file: postlogd reopens maillog_file, which a socket (Node's pipes) cannot be.
  const child: ChildProcess = spawn(POSTFIX, ['-c', etc, 'start-fg'], { stdio: 'ignore' });
  const log = async () => await readFile(join(root, 'maillog'), 'utf8').catch(() => '');
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`postfix exited (${child.exitCode}):\n${await log()}`);
      return /daemon started/.test(await log()) ? true : undefined;
    },
    { timeoutMs: 20_000, what: 'postfix to start' },
  );
  return {
    port,
    maildir: join(vmail, 'mail', 'new'),
    async stop() {
      try {
        execFileSync(POSTFIX, ['-c', etc, 'stop'], { stdio: 'pipe' });
      } catch {
        child.kill('SIGKILL');
      }
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => child.once('exit', resolve));
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}

describe.skipIf(!canRunPostfix)('delivery to Postfix', () => {
  let postfix: Awaited<ReturnType<typeof startPostfix>>;
  let dns: Awaited<ReturnType<typeof startMxDns>>;
  let sender: TestServer;
  let world: SenderWorld;

  beforeAll(async () => {
    postfix = await startPostfix('pf.test');
    dns = await startMxDns([{ domain: 'pf.test' }]);
    sender = await startTestServer({
      env: { DNS_SERVERS: dns.address, OUTBOUND_PORT: String(postfix.port), QUEUE_POLL_MS: '200' },
    });
    world = await senderWorld(sender, 'pf', 'pfsender.test');
  });
  afterAll(() => stopAll(sender, dns, postfix));

  it('is accepted by Postfix and lands in its Maildir intact and DKIM-valid', async () => {
    const attachment = randomBytes(100 * 1024);
    const file = await upload(sender, world.mailboxToken, attachment, '合同.pdf', 'application/pdf');
    expectOk(file.body);
    const sent = await sender.api('POST', 'user/sendEmail', {
      token: world.mailboxToken,
      body: {
        from: world.mailboxAddress,
        to: ['lisi@pf.test'],
        subject: '合同 — 经由 Postfix',
        html: '<p>请<b>签收</b>。</p>',
        attachments: [file.body.data.id],
      },
    });
    expectOk(sent.body);
    const item = await settled(sender, world.mailboxToken, sent.body.data.id);
    expect(item.status).toBe('delivered');
    expect(item.deliveries[0]?.remoteResponse).toMatch(/^250 2\.0\.0 Ok: queued as /);

    const name = await waitFor(
      async () => (existsSync(postfix.maildir) ? (await readdir(postfix.maildir))[0] : undefined),
      { timeoutMs: 20_000, what: 'the Maildir file' },
    );
    const delivered = await readFile(join(postfix.maildir, name));
    const original = await rawOf(sender, world.mailboxToken, `sentRaw/${sent.body.data.id}`);
    // Postfix adds its trace headers on top and stores lines with LF (Maildir); everything we sent
    // follows byte for byte.
    const head = delivered.subarray(0, delivered.indexOf('DKIM-Signature:')).toString();
    expect(head).toMatch(/^Return-Path: <zhangsan@pfsender\.test>\n/);
    expect(head).toMatch(/\nDelivered-To: lisi@pf\.test\n/);
    expect(head).toMatch(
      /\nReceived: from mx\.youju\.test \(localhost \[127\.0\.0\.1\]\)\n\tby mx\.pf\.test \(Postfix\)/,
    );
    const asLf = Buffer.from(original.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
    expect(delivered.subarray(delivered.length - asLf.length).equals(asLf)).toBe(true);

    const parsed = await simpleParser(delivered);
    expect(parsed.subject).toBe('合同 — 经由 Postfix');
    expect(parsed.attachments[0]?.filename).toBe('合同.pdf');
    expect(parsed.attachments[0]?.content.equals(attachment)).toBe(true);

    const dkim = await sender.api('GET', `user/getDkim?id=${world.domainId}`, { token: world.userToken });
    expectOk(dkim.body);
    const asCrlf = Buffer.from(delivered.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
    const result = await verifyDkim(asCrlf, dkim.body.data.record);
    expect(result.results[0]).toMatchObject({ signingDomain: 'pfsender.test', status: { result: 'pass' } });
  });
});
