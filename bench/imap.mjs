#!/usr/bin/env node
// `node bench/imap.mjs [messages] [rounds]`: IMAP on a big folder, Youju beside Dovecot in the same run.
// Both hold the same messages (default 10,000, about 2 KiB each, a third \Seen, a tenth \Flagged) in
// INBOX; each is timed over plain IMAP on loopback, logged in beforehand:
//  - SELECT INBOX + UID FETCH 1:* (FLAGS), what a client does on opening a folder it has synced;
//  - a full mbsync (isync) of the folder into an empty Maildir, what a first sync costs.
// Youju: the built server (SQLite in a fresh data directory), messages put in with APPEND (LITERAL+,
// pipelined). Dovecot: Debian's dovecot-imapd as a foreground child of this script (-F, its own
// config and directories, a static passdb), the same messages written into its Maildir. Needs
// /usr/sbin/dovecot, /usr/bin/mbsync and `npm run build`; prints figures, asserts nothing.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ADMIN, freePort, startBuiltServer } from './tools/server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const COUNT = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const PASSWORD = 'bench-mailbox-pw1';

for (const binary of ['/usr/sbin/dovecot', '/usr/bin/mbsync']) {
  if (!existsSync(binary)) {
    console.log(`imap: skipped (${binary} missing: apt-get install dovecot-imapd isync)`);
    process.exit(0);
  }
}
if (!existsSync(join(root, 'apps/server/dist/server.js'))) {
  console.log('imap: skipped (run npm run build first)');
  process.exit(0);
}

/** The i-th message, CRLF lines (as on the wire), some Chinese, about 2 KiB. */
function message(i) {
  const body = Array.from(
    { length: 24 },
    (_, line) => `第 ${i} 封邮件，第 ${line} 行: lorem ipsum dolor sit amet ${i * line}`,
  );
  return Buffer.from(
    [
      `Message-ID: <bench-${i}@bench.youju.test>`,
      `Date: ${new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString().replace('GMT', '+0000')}`,
      `From: Sender ${i % 200} <sender${i % 200}@example.org>`,
      'To: reader@bench.youju.test',
      `Subject: =?UTF-8?B?${Buffer.from(`测试邮件 ${i}`).toString('base64')}?=`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      ...body,
      '',
    ].join('\r\n'),
  );
}
const flagsOf = (i) => [...(i % 10 === 0 ? ['\\Flagged'] : []), ...(i % 3 === 0 ? ['\\Seen'] : [])];

/** A bare IMAP connection: sends command lines, resolves on their tagged answers. */
async function imapSession(port, user, password) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffer = '';
  const waiting = new Map();
  let greeted;
  const greeting = new Promise((resolve) => {
    greeted = resolve;
  });
  socket.setEncoding('latin1');
  socket.on('data', (chunk) => {
    buffer += chunk;
    const end = buffer.lastIndexOf('\r\n');
    if (end < 0) return;
    const lines = buffer.slice(0, end).split('\r\n');
    buffer = buffer.slice(end + 2);
    for (const line of lines) {
      if (line.startsWith('* OK') && greeted) {
        greeted();
        greeted = null;
      }
      const match = /^(t\d+) (OK|NO|BAD)/.exec(line);
      if (!match) continue;
      const done = waiting.get(match[1]);
      waiting.delete(match[1]);
      if (match[2] === 'OK') done?.resolve(line);
      else done?.reject(new Error(line));
    }
  });
  socket.on('close', () => {
    for (const done of waiting.values()) done.reject(new Error('connection closed'));
    waiting.clear();
  });
  await greeting;
  let next = 0;
  const send = (command, literal) =>
    new Promise((resolve, reject) => {
      const tag = `t${++next}`;
      waiting.set(tag, { resolve, reject });
      if (literal) {
        socket.write(`${tag} ${command} {${literal.length}+}\r\n`);
        socket.write(literal);
        socket.write('\r\n');
      } else socket.write(`${tag} ${command}\r\n`);
    });
  await send(`LOGIN "${user}" "${password}"`);
  return { send, close: () => socket.destroy() };
}

/** SELECT + UID FETCH 1:* (FLAGS) `ROUNDS` times on one logged-in session; milliseconds of each. */
async function openFolder(port, user, password) {
  const session = await imapSession(port, user, password);
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await session.send('SELECT INBOX');
    await session.send('UID FETCH 1:* (FLAGS)');
    times.push(performance.now() - started);
    await session.send('UNSELECT').catch(() => session.send('CLOSE'));
  }
  session.close();
  return times;
}

/** A full mbsync of INBOX into an empty Maildir, `ROUNDS` times; milliseconds of each. */
function fullSync(work, port, user, password) {
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const target = join(work, `mbsync-${port}-${round}`);
    mkdirSync(target);
    const config = join(work, `mbsyncrc-${port}`);
    writeFileSync(
      config,
      [
        'IMAPAccount bench',
        'Host 127.0.0.1',
        `Port ${port}`,
        `User ${user}`,
        `Pass ${password}`,
        'SSLType None',
        'AuthMechs LOGIN',
        '',
        'IMAPStore remote',
        'Account bench',
        '',
        'MaildirStore local',
        `Path ${target}/`,
        `Inbox ${target}/INBOX`,
        '',
        'Channel sync',
        'Far :remote:',
        'Near :local:',
        'Patterns INBOX',
        'Create Near',
        'SyncState *',
        '',
      ].join('\n'),
    );
    const started = performance.now();
    const result = spawnSync('mbsync', ['-q', '-c', config, '-a'], { encoding: 'utf8' });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`mbsync: ${result.stderr}`);
    rmSync(target, { recursive: true, force: true });
  }
  return times;
}

async function youju(work) {
  const imapPort = await freePort();
  const dataDir = join(work, 'youju');
  mkdirSync(dataDir);
  const server = await startBuiltServer({
    timeoutMs: 120_000,
    dataDir,
    env: { IMAP_PORT: String(imapPort), MAIL_HOSTNAME: 'mx.bench.test' },
  });
  try {
    const post = async (path, body, token) => {
      const response = await fetch(`${server.base}/${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      const json = await response.json();
      if (json.error !== 0) throw new Error(`${path}: ${JSON.stringify(json)}`);
      return json.data;
    };
    const { token } = await post('login', BENCH_ADMIN);
    const domain = await post('user/addDomain', { name: 'bench.youju.test' }, token);
    await post(
      'user/createEmailAccount',
      { domainId: domain.id, localPart: 'reader', password: PASSWORD },
      token,
    );
    const user = 'reader@bench.youju.test';
    const filling = performance.now();
    // Eight sessions side by side, each pipelining its APPENDs (LITERAL+): the store commits the
    // concurrent ones together, as it does for parallel SMTP deliveries.
    const SESSIONS = 8;
    // Logged in one after the other: the login throttle counts an attempt before checking it, so
    // more than five at once on one account are refused (auth/login-throttle.ts).
    const sessions = [];
    for (let lane = 0; lane < SESSIONS; lane++) sessions.push(await imapSession(imapPort, user, PASSWORD));
    await Promise.all(
      sessions.map(async (session, lane) => {
        const pending = [];
        for (let i = lane; i < COUNT; i += SESSIONS) {
          pending.push(session.send(`APPEND INBOX (${flagsOf(i).join(' ')})`, message(i)));
          if (pending.length === 50) await Promise.all(pending.splice(0));
        }
        await Promise.all(pending);
        session.close();
      }),
    );
    console.log(
      `youju: ${COUNT} messages appended in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
    );
    const open = await openFolder(imapPort, user, PASSWORD);
    log('youju: folder opened');
    return { open, sync: fullSync(work, imapPort, user, PASSWORD) };
  } finally {
    await server.stop();
  }
}

async function dovecot(work) {
  const home = join(work, 'dovecot');
  const maildir = join(home, 'Maildir');
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
  mkdirSync(join(home, 'run'));
  for (let i = 0; i < COUNT; i++) {
    // Maildir keeps LF lines (Dovecot turns them into CRLF on the wire); flags in the name (S, F).
    const letters = `${i % 10 === 0 ? 'F' : ''}${i % 3 === 0 ? 'S' : ''}`;
    writeFileSync(
      join(maildir, 'cur', `${1_700_000_000 + i}.M${i}P1.bench:2,${letters}`),
      message(i).toString('latin1').replace(/\r\n/g, '\n'),
      'latin1',
    );
  }
  const port = await freePort();
  const config = join(home, 'dovecot.conf');
  const me = spawnSync('id', ['-un'], { encoding: 'utf8' }).stdout.trim();
  // Dovecot refuses mail access as root: as root, the mail belongs to nobody.
  const [uid, gid] = process.getuid() === 0 ? [65534, 65534] : [process.getuid(), process.getgid()];
  if (process.getuid() === 0) {
    spawnSync('chown', ['-R', `${uid}:${gid}`, maildir]);
    chmodSync(work, 0o711); // mkdtemp makes it 0700: nobody must pass through
  }
  writeFileSync(
    config,
    `base_dir = ${home}/run
state_dir = ${home}/state
log_path = ${home}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${maildir}
default_internal_user = ${me === 'root' ? 'dovecot' : me}
default_login_user = ${me === 'root' ? 'dovenull' : me}
passdb {
  driver = static
  args = password=${PASSWORD}
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${home}
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service stats {
  inet_listener http {
    port = 0
  }
}
`,
  );
  mkdirSync(join(home, 'state'));
  const child = spawn('/usr/sbin/dovecot', ['-F', '-c', config], { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        (await imapSession(port, 'reader', PASSWORD)).close();
        break;
      } catch (error) {
        if (attempt > 100 || child.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    log('dovecot: started');
    const open = await openFolder(port, 'reader', PASSWORD);
    log('dovecot: folder opened');
    return { open, sync: fullSync(work, port, 'reader', PASSWORD) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const log = (text) => process.env.BENCH_VERBOSE && console.error(text);
const seconds = (ms) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);
const best = (times) => Math.min(...times);

const work = mkdtempSync(join(tmpdir(), 'youju-bench-imap-'));
try {
  const ours = await youju(work);
  const theirs = await dovecot(work);
  console.log(`imap, ${COUNT} messages in INBOX, ${ROUNDS} rounds each (first = cold):`);
  for (const [label, key] of [
    ['SELECT + UID FETCH 1:* (FLAGS)', 'open'],
    ['full mbsync of the folder', 'sync'],
  ]) {
    console.log(
      `  ${label}: Youju ${ours[key].map(seconds).join(' / ')}; Dovecot ${theirs[key].map(seconds).join(' / ')}; ` +
        `best Youju/Dovecot ${(best(ours[key]) / best(theirs[key])).toFixed(2)}×`,
    );
  }
} finally {
  if (!process.env.BENCH_KEEP) rmSync(work, { recursive: true, force: true });
}
