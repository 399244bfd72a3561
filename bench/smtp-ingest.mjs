#!/usr/bin/env node
// Inbound SMTP ingest: Youju against Postfix on the same machine, in the same run, under the same
// load: Postfix's own load generator, `smtp-source -s 20 -m 3000 -l 10240` (20 parallel sessions,
// 3000 messages of 10 KiB, a new connection per message) to one address. Measures, never asserts.
//
// For each server it prints:
//  - acknowledged throughput: messages answered 250 per second of smtp-source's run (for both a 250
//    means "stored durably": Youju committed to the database, Postfix fsynced its queue file);
//  - delivered: seconds from the start until all of them can be read (Youju: getInbox counts them
//    all; Postfix: all are in the Maildir);
//  - Youju's peak resident memory (VmHWM of the server process);
//  - CPU milliseconds per message over the same span: Youju's main thread and its other threads
//    (the store worker, V8's and libuv's helpers), and all of Postfix's processes. On a machine
//    shared with other work this holds far better than throughput.
// Both are warmed first by a few messages (WARM_UP), not counted. Then the ratio of the
// acknowledged throughputs, and of the CPU per message. Postfix runs with Debian's default configuration
// apart from what a private instance on loopback needs (its own directories, a port, one virtual
// Maildir domain, no per-client rate limits for loopback).
//
// Usage: node bench/smtp-ingest.mjs [messages=3000] [sessions=20] [bytes=10240] [rounds=1]
// Needs Debian's postfix (smtp-source, and root to run a private Postfix). BENCH_NODE_ARGS adds
// node options to the server, after those `npm start` gives it (scripts/server-options.mjs) (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"); BENCH_DATABASE_URL
// measures Youju on PostgreSQL too.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ADMIN, freePort, startBuiltServer } from './tools/server.mjs';

const total = Number(process.argv[2] ?? 3000);
const sessions = Number(process.argv[3] ?? 20);
const bytes = Number(process.argv[4] ?? 10240);
const rounds = Number(process.argv[5] ?? 1);
const SMTP_SOURCE = process.env.BENCH_SMTP_SOURCE ?? '/usr/sbin/smtp-source';
const TO = 'inbox@bench.test';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * How often both sides are checked for "all readable" (getInbox; the Maildir). Every request is
 * served by the very thread that takes the SMTP sessions: at 20 ms the bench's own polling was a
 * fifth of that thread's work; at 100 ms the figure is still exact to a tenth of a second.
 */
const POLL_MS = 100;

/**
 * Before the measured run each server takes this many messages in `sessions` sessions and has them
 * readable, so that both are measured warm, as a server that has been up a while: Postfix's master
 * has spawned its smtpd and cleanup processes, Youju's store worker (started with the first message
 * or 5 s after the app) has loaded its modules. Counts and CPU are of the measured run alone.
 */
const WARM_UP = 2 * sessions;

/** Runs smtp-source against 127.0.0.1:port; resolves with its wall time in seconds. */
function smtpSource(port, messages = total) {
  const args = ['-s', String(sessions), '-m', String(messages), '-l', String(bytes)];
  args.push('-f', 'bench@sender.test', '-t', TO, `127.0.0.1:${port}`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(SMTP_SOURCE, args, { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`smtp-source failed: ${stderr || error.message}`));
      else resolve((performance.now() - started) / 1000);
    });
  });
}

/** Peak resident set of a process in MiB (Linux), or null. */
function peakRss(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** CPU seconds of one /proc stat line: its own (utime + stime) and its reaped children's (cutime + cstime). */
function cpuOf(statLine) {
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its ')'.
  const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  const own = (Number(fields[11]) + Number(fields[12])) / TICKS;
  const children = (Number(fields[13]) + Number(fields[14])) / TICKS;
  return { own, children, parent: Number(fields[1]) };
}

/** CPU seconds used so far by each thread of process `pid`: the main thread and all the others. */
function threadCpu(pid) {
  let main = 0;
  let others = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const { own } = cpuOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
      if (Number(tid) === pid) main += own;
      else others += own;
    }
  } catch {}
  return { main, others };
}

/**
 * CPU seconds used so far by process `root` and all its descendants, living or reaped by one of
 * them (Postfix's master reaps its daemons, so their time lands in its cutime/cstime).
 */
function treeCpu(root) {
  const stats = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.set(Number(entry), cpuOf(readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {}
  }
  const inTree = (pid) => {
    for (let cur = pid, hops = 0; cur > 1 && hops < 64; hops++) {
      if (cur === root) return true;
      cur = stats.get(cur)?.parent ?? 0;
    }
    return false;
  };
  let total = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) total += stat.own + stat.children;
  return total;
}

const perMessage = (seconds) => `${((1000 * seconds) / total).toFixed(2)} ms`;

function line(label, seconds, deliveredSeconds, extra = '') {
  const rate = total / seconds;
  console.log(
    `${label.padEnd(30)} ${rate.toFixed(0).padStart(6)} msg/s acknowledged (${seconds.toFixed(2)} s)` +
      `  all readable after ${deliveredSeconds === null ? '—' : `${deliveredSeconds.toFixed(2)} s`}${extra}`,
  );
  return rate;
}

async function youju(databaseUrl) {
  const dataDir = await mkdtemp(join(tmpdir(), 'youju-bench-ingest-'));
  const server = await startBuiltServer({
    dataDir,
    databaseUrl,
    env: { MAIL_HOSTNAME: 'mx.bench.test' },
    nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    stdout: process.env.BENCH_VERBOSE ? 'inherit' : 'ignore',
  }).catch(async (error) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const { base, smtpPort, child } = server;
  try {
    const call = async (method, path, body, token) =>
      (
        await fetch(`${base}/${path}`, {
          method,
          headers: {
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        })
      ).json();
    const { data } = await call('POST', 'login', BENCH_ADMIN);
    const domain = await call('POST', 'user/addDomain', { name: 'bench.test' }, data.token);
    await call('POST', 'user/createEmail', { domainId: domain.data.id, localPart: 'inbox' }, data.token);
    const stored = async () =>
      (await call('GET', `user/getInbox?page=1&pageSize=20&address=${TO}`, null, data.token)).data?.total ??
      0;
    await smtpSource(smtpPort, WARM_UP);
    for (let i = 0; i < 600 && (await stored()) < WARM_UP; i++) await sleep(POLL_MS);
    const cpuBefore = threadCpu(child.pid);
    const started = performance.now();
    const sending = smtpSource(smtpPort);
    // getInbox as the web client asks it, until it counts every message.
    let readable = null;
    const watching = (async () => {
      for (;;) {
        if ((await stored()) >= WARM_UP + total) {
          readable = (performance.now() - started) / 1000;
          return;
        }
        if (performance.now() - started > 600_000) return;
        await sleep(POLL_MS);
      }
    })();
    const seconds = await sending;
    await watching;
    const rss = peakRss(child.pid);
    const cpuAfter = threadCpu(child.pid);
    const main = cpuAfter.main - cpuBefore.main;
    const others = cpuAfter.others - cpuBefore.others;
    const label = databaseUrl ? 'Youju (PostgreSQL)' : 'Youju (SQLite, default)';
    const rate = line(label, seconds, readable, rss === null ? '' : `  peak RSS ${rss.toFixed(0)} MiB`);
    console.log(
      `${''.padEnd(30)} CPU ${perMessage(main + others)}/message (main thread ${perMessage(main)}, ` +
        `store worker and other threads ${perMessage(others)}; the getInbox polling included)`,
    );
    return { rate, cpu: main + others };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function id(flag, name) {
  return Number(execFileSync('id', [flag, name]).toString().trim());
}

async function postfix() {
  if (!existsSync('/usr/sbin/postfix') || process.getuid?.() !== 0) {
    console.log('Postfix: not measured (needs root and Debian’s postfix package)');
    return null;
  }
  const dir = await mkdtemp(join(tmpdir(), 'youju-bench-postfix-'));
  await chmod(dir, 0o755);
  const etc = join(dir, 'etc');
  const data = join(dir, 'data');
  const vmail = join(dir, 'vmail');
  for (const folder of [etc, join(dir, 'queue'), data, vmail]) await mkdir(folder);
  await chown(data, id('-u', 'postfix'), id('-g', 'postfix'));
  await chown(vmail, id('-u', 'nobody'), id('-g', 'nobody'));
  const port = await freePort();
  // Debian's master.cf with smtpd on our port.
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
      `queue_directory = ${join(dir, 'queue')}`,
      `data_directory = ${data}`,
      'command_directory = /usr/sbin',
      'daemon_directory = /usr/lib/postfix/sbin',
      'meta_directory = /etc/postfix',
      'shlib_directory = /usr/lib/postfix',
      'mail_owner = postfix',
      'setgid_group = postdrop',
      'myhostname = mx.bench.test',
      'mydestination =',
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mynetworks = 127.0.0.0/8',
      'virtual_mailbox_domains = bench.test',
      `virtual_mailbox_base = ${vmail}`,
      'virtual_mailbox_maps = static:mail/',
      `virtual_uid_maps = static:${id('-u', 'nobody')}`,
      `virtual_gid_maps = static:${id('-g', 'nobody')}`,
      'virtual_minimum_uid = 100',
      `maillog_file_prefixes = ${dir}`,
      `maillog_file = ${join(dir, 'maillog')}`,
      'smtpd_client_connection_count_limit = 0',
      'smtpd_client_connection_rate_limit = 0',
      'smtpd_client_message_rate_limit = 0',
      '',
    ].join('\n'),
  );
  const child = spawn('/usr/sbin/postfix', ['-c', etc, 'start-fg'], { stdio: 'ignore' });
  try {
    for (let i = 0; i < 200; i++) {
      if (/daemon started/.test(await readFile(join(dir, 'maillog'), 'utf8').catch(() => ''))) break;
      await sleep(100);
    }
    const maildir = join(vmail, 'mail', 'new');
    const count = () => (existsSync(maildir) ? readdirSync(maildir).length : 0);
    await smtpSource(port, WARM_UP);
    for (let i = 0; i < 600 && count() < WARM_UP; i++) await sleep(POLL_MS);
    const cpuBefore = treeCpu(child.pid);
    const started = performance.now();
    const seconds = await smtpSource(port);
    while (count() < WARM_UP + total && performance.now() - started < 600_000) await sleep(POLL_MS);
    const delivered = (performance.now() - started) / 1000;
    // Postfix's daemons that are still alive count with what they used so far; smtp-source is
    // not in the tree (the bench started it).
    const cpu = treeCpu(child.pid) - cpuBefore;
    const rate = line('Postfix (Debian defaults)', seconds, delivered);
    console.log(`${''.padEnd(30)} CPU ${perMessage(cpu)}/message (all of Postfix's processes)`);
    return { rate, cpu };
  } finally {
    try {
      execFileSync('/usr/sbin/postfix', ['-c', etc, 'stop'], { stdio: 'pipe' });
    } catch {
      child.kill('SIGKILL');
    }
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    await rm(dir, { recursive: true, force: true });
  }
}

if (!existsSync(SMTP_SOURCE)) {
  console.log('SMTP ingest: not measured (needs smtp-source from Debian’s postfix package)');
  process.exit(0);
}
console.log(`SMTP ingest: smtp-source -s ${sessions} -m ${total} -l ${bytes}, one recipient`);
for (let round = 1; round <= rounds; round++) {
  if (rounds > 1) console.log(`round ${round}`);
  const only = process.env.BENCH_ONLY; // 'youju' or 'postfix', to profile one side
  const ours = only === 'postfix' ? null : await youju(null);
  if (process.env.BENCH_DATABASE_URL && only !== 'postfix') await youju(process.env.BENCH_DATABASE_URL);
  const theirs = only === 'youju' ? null : await postfix();
  if (ours && theirs) {
    console.log(`ratio Youju/Postfix (acknowledged): ${(ours.rate / theirs.rate).toFixed(2)}×`);
    console.log(`CPU per message, Youju/Postfix: ${(ours.cpu / theirs.cpu).toFixed(2)}×`);
  }
}
