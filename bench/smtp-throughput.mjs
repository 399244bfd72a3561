#!/usr/bin/env node
// Inbound SMTP throughput: Youju against Postfix on the same machine. The bar: Youju takes mail
// faster than Postfix does there. Measures, never asserts. Both get the same messages over the same
// number of connections; a message counts when the server answered 250 to its DATA, which for both
// means "stored durably" (Youju: committed to the database; Postfix: its queue file fsynced). For
// Postfix the time until every message is delivered into the Maildir is reported too.
// Usage: node bench/smtp-throughput.mjs [messages=2000] [connections=8] [kib=10]
// Postfix needs root and Debian's postfix package; without them only Youju is measured.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const total = Number(process.argv[2] ?? 2000);
const connections = Number(process.argv[3] ?? 8);
const sizeKib = Number(process.argv[4] ?? 10);

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function message(index, to) {
  const line = '这是一封用于测量吞吐量的测试邮件。The quick brown fox jumps over the lazy dog.'.padEnd(
    76,
    '.',
  );
  const body = [];
  for (let size = 0; size < sizeKib * 1024; size += 78) body.push(line);
  return [
    'From: bench@sender.test',
    `To: ${to}`,
    `Subject: bench ${index}`,
    `Message-ID: <bench-${index}-${Date.now()}@sender.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    ...body,
  ].join('\r\n');
}

/** One SMTP session sending `count` messages, one command at a time (no pipelining). */
function session(port, to, first, count) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = '';
    let sent = 0;
    const script = (index) => [
      'MAIL FROM:<bench@sender.test>',
      `RCPT TO:<${to}>`,
      'DATA',
      `${message(index, to).replace(/^\./gm, '..')}\r\n.`,
    ];
    let queue = ['EHLO bench.test'];
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      // A reply is complete at its last line: "NNN text" (RFC 5321 section 4.2.1).
      const lines = buffer.split('\r\n');
      const last = lines.at(-2) ?? '';
      if (lines.at(-1) !== '' || !/^\d{3} /.test(last)) return;
      buffer = '';
      if (!/^[23]/.test(last)) {
        socket.destroy();
        reject(new Error(`SMTP refused: ${last}`));
        return;
      }
      if (queue.length === 0) {
        if (sent === count) {
          socket.end('QUIT\r\n');
          resolve();
          return;
        }
        queue = script(first + sent);
        sent++;
      }
      socket.write(`${queue.shift()}\r\n`);
    });
    socket.on('error', reject);
  });
}

async function blast(port, to) {
  const per = Math.ceil(total / connections);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, (_, i) => session(port, to, i * per, Math.min(per, total - i * per))),
  );
  return (performance.now() - started) / 1000;
}

function report(label, seconds) {
  const mib = (total * sizeKib) / 1024;
  console.log(
    `${label.padEnd(34)} ${(total / seconds).toFixed(0).padStart(6)} msg/s  ${(mib / seconds).toFixed(1).padStart(6)} MiB/s  (${total} × ${sizeKib} KiB over ${connections} connections in ${seconds.toFixed(2)} s)`,
  );
}

async function youju() {
  const dataDir = await mkdtemp(join(tmpdir(), 'youju-bench-smtp-'));
  const port = await freePort();
  const smtpPort = await freePort();
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), 'apps/server/dist/server.js'],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SMTP_PORT: String(smtpPort),
        DATA_DIR: dataDir,
        INIT_ADMIN_USER: 'bench',
        INIT_ADMIN_PASSWORD: 'bench-password',
        LOG_LEVEL: 'warn',
        MAIL_HOSTNAME: 'mx.bench.test',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}/api`;
  try {
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${base}/getVar`)).ok) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 100));
    }
    const post = async (path, body, token) =>
      (
        await fetch(`${base}/${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        })
      ).json();
    const { data } = await post('login', { username: 'bench', password: 'bench-password' });
    const domain = await post('user/addDomain', { name: 'bench.test' }, data.token);
    await post('user/createEmail', { domainId: domain.data.id, localPart: 'inbox' }, data.token);
    report('Youju (SQLite, synchronous=FULL)', await blast(smtpPort, 'inbox@bench.test'));
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

function id(flag, name) {
  return Number(execFileSync('id', [flag, name]).toString().trim());
}

async function postfix() {
  if (!existsSync('/usr/sbin/postfix') || process.getuid?.() !== 0) {
    console.log('Postfix: not measured (needs root and Debian’s postfix package)');
    return;
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
      'smtpd_client_message_rate_limit = 0',
      '',
    ].join('\n'),
  );
  const child = spawn('/usr/sbin/postfix', ['-c', etc, 'start-fg'], { stdio: 'ignore' });
  try {
    for (let i = 0; i < 200; i++) {
      if (/daemon started/.test(await readFile(join(dir, 'maillog'), 'utf8').catch(() => ''))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = performance.now();
    report('Postfix (queue, fsync)', await blast(port, 'inbox@bench.test'));
    const maildir = join(vmail, 'mail', 'new');
    while ((existsSync(maildir) ? readdirSync(maildir).length : 0) < total) {
      if (performance.now() - started > 300_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const delivered = existsSync(maildir) ? readdirSync(maildir).length : 0;
    console.log(
      `Postfix: ${delivered} of ${total} in the Maildir after ${((performance.now() - started) / 1000).toFixed(2)} s`,
    );
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

await youju();
await postfix();
