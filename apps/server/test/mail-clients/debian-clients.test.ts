import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRaw } from '../support/api.js';
import { inbox } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createMailAccount, imapClient, type MailAccount } from './mail-client-helpers.js';

/**
 * Debian's own mail clients against the running server, in batch mode: mbsync (isync), fetchmail
 * and mutt (CI installs the Debian packages `isync`, `fetchmail` and `mutt`; a missing binary skips
 * its test). Every client rewrites a message in its own documented way before it lands on disk, so
 * the comparison undoes exactly that and nothing else: Maildir and mbox files have LF line ends
 * (the wire and the store have CRLF), mbsync adds its `X-TUID` header (its recovery marker),
 * fetchmail prepends its `Received:` header, mutt's pipe-split adds one separating newline.
 */

const run = promisify(execFile);
const has = (binary: string) => existsSync(`/usr/bin/${binary}`);

let server: TestServer;
let account: MailAccount;
let work: string;

/** The stored message as a Maildir or mbox holds it: CRLF turned into LF. */
const asLf = (bytes: Buffer) => Buffer.from(bytes.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');

async function rawOf(id: number): Promise<Buffer> {
  const response = await getRaw(server, `user/raw/${id}`, { token: account.token });
  expect(response.status).toBe(200);
  return response.bytes;
}

async function deliver(subject: string, body: string): Promise<void> {
  const content = simpleMessage(account.email, subject, body);
  expect((await sendMail(server.smtpPort, { to: [account.email], content })).data?.code).toBe(250);
}

beforeAll(async () => {
  server = await startTestServer({ mailClients: {} });
  account = await createMailAccount(server, 'debian');
  work = await mkdtemp(join(tmpdir(), 'youju-debian-clients-'));
});
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe.skipIf(!has('mbsync'))('mbsync (isync) syncs every folder to a Maildir', () => {
  const appended: Record<string, Buffer> = {
    Sent: Buffer.from('From: me@example.org\r\nTo: you@example.org\r\nSubject: sent copy\r\n\r\n已发送\r\n'),
    Drafts: Buffer.from('From: me@example.org\r\nSubject: draft\r\n\r\n草稿\r\n.\r\n'),
    Trash: Buffer.from('From: me@example.org\r\nSubject: binned\r\n\r\ngone\r\n'),
  };
  let config: string;
  let maildir: string;

  /** Files of one Maildir folder: name → bytes, with the mbsync UID and the flag letters. */
  async function folder(name: string) {
    const files: { path: string; uid: number; flags: string; bytes: Buffer }[] = [];
    for (const sub of ['cur', 'new']) {
      const directory = join(maildir, name, sub);
      if (!existsSync(directory)) continue;
      for (const file of await readdir(directory)) {
        const match = /,U=(\d+)(?::2,([A-Z]*))?$/.exec(file);
        if (!match) continue;
        const path = join(directory, file);
        files.push({ path, uid: Number(match[1]), flags: match[2] ?? '', bytes: await readFile(path) });
      }
    }
    return files;
  }

  /** What mbsync wrote, without the X-TUID header it inserts into the header block. */
  const withoutTuid = (bytes: Buffer) =>
    Buffer.from(bytes.toString('latin1').replace(/^X-TUID: [^\n]*\n/m, ''), 'latin1');

  async function sync(): Promise<void> {
    await run('mbsync', ['-q', '-c', config, '-a'], { timeout: 60_000 });
  }

  beforeAll(async () => {
    await deliver('=?UTF-8?B?5pS25Lu2?=', '收件箱 one\r\n.leading dot\r\n');
    await deliver('second', 'two');
    await deliver('third', 'three');
    await deliver('spammy', 'buy now');
    const spam = (await inbox(server, account.token)).list.find((item) => item.subject === 'spammy');
    await server.api('POST', 'user/updateEmail', {
      token: account.token,
      body: { id: spam?.id as number, spam: true },
    });
    const client = await imapClient(server.imapPort as number, account);
    for (const [name, bytes] of Object.entries(appended)) await client.append(name, bytes, ['\\Seen']);
    await client.logout();

    maildir = join(work, 'maildir');
    await mkdir(maildir);
    config = join(work, 'mbsyncrc');
    // SSLType None: plain IMAP over loopback, where the server allows LOGIN without TLS.
    await writeFile(
      config,
      [
        'IMAPAccount youju',
        'Host 127.0.0.1',
        `Port ${server.imapPort}`,
        `User ${account.email}`,
        `Pass ${account.password}`,
        'SSLType None',
        'AuthMechs LOGIN',
        '',
        'IMAPStore remote',
        'Account youju',
        '',
        'MaildirStore local',
        `Path ${maildir}/`,
        `Inbox ${maildir}/INBOX`,
        'SubFolders Verbatim',
        '',
        'Channel sync',
        'Far :remote:',
        'Near :local:',
        'Patterns *',
        'Create Near',
        'Expunge Both',
        'SyncState *',
        '',
      ].join('\n'),
    );
    await sync();
  });

  it('writes every folder, each message equal to the stored raw bytes', async () => {
    expect((await readdir(maildir)).sort()).toEqual(['Drafts', 'INBOX', 'Junk', 'Sent', 'Trash']);
    const web = (await inbox(server, account.token)).list;
    const junk = (await inbox(server, account.token, '&folder=junk')).list;
    expect(web).toHaveLength(3);
    expect(junk).toHaveLength(1);
    const expected: Record<string, Buffer[]> = {
      INBOX: await Promise.all(web.map((item) => rawOf(item.id))),
      Junk: await Promise.all(junk.map((item) => rawOf(item.id))),
      ...Object.fromEntries(Object.entries(appended).map(([name, bytes]) => [name, [bytes]])),
    };
    for (const [name, raws] of Object.entries(expected)) {
      const got = (await folder(name)).map((file) => withoutTuid(file.bytes).toString('latin1')).sort();
      expect(got, name).toEqual(raws.map((bytes) => asLf(bytes).toString('latin1')).sort());
    }
    // Appended with \Seen: mbsync files them with the S flag.
    expect((await folder('Sent'))[0]?.flags).toBe('S');
  });

  it('carries flags both ways with the web, and a Maildir deletion removes the message on the web', async () => {
    const [first, second, third] = (await inbox(server, account.token)).list.sort((x, y) => x.id - y.id);
    if (!first || !second || !third) throw new Error('three messages expected');
    // Web → Maildir: starred is F, read is S.
    await server.api('POST', 'user/updateEmail', {
      token: account.token,
      body: { id: first.id, starred: true },
    });
    await server.api('POST', 'user/setReadEmail', {
      token: account.token,
      body: { ids: [second.id], read: true },
    });
    await sync();
    const files = await folder('INBOX');
    const byBody = async (id: number) => {
      const raw = asLf(await rawOf(id)).toString('latin1');
      const file = files.find((entry) => withoutTuid(entry.bytes).toString('latin1') === raw);
      if (!file) throw new Error(`message ${id} not in the Maildir`);
      return file;
    };
    const one = await byBody(first.id);
    const two = await byBody(second.id);
    const three = await byBody(third.id);
    expect(one.flags).toBe('F');
    expect(two.flags).toBe('S');
    expect(three.flags).toBe('');

    // Maildir → web: the third flagged and seen (renamed into cur/ with :2,FS), the second deleted.
    await rename(
      three.path,
      join(
        maildir,
        'INBOX',
        'cur',
        `${three.path
          .split('/')
          .pop()
          ?.replace(/:2,.*$/, '')}:2,FS`,
      ),
    );
    await unlink(two.path);
    await sync();
    const after = (await inbox(server, account.token)).list;
    expect(after.map((item) => item.id).sort()).toEqual([first.id, third.id].sort());
    expect(after.find((item) => item.id === third.id)).toMatchObject({ read: true, starred: true });
    expect(after.find((item) => item.id === first.id)).toMatchObject({ read: false, starred: true });
    expect((await readRawStatus(second.id)).status).toBe(404);
  });
});

async function readRawStatus(id: number) {
  return getRaw(server, `user/raw/${id}`, { token: account.token });
}

/** A script that writes what it reads on stdin into a new file of `directory`, for an MDA or a pipe. */
async function savingScript(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true });
  const script = join(directory, '..', `save-${Math.random().toString(36).slice(2)}.sh`);
  await writeFile(script, `#!/bin/sh\ncat > "${directory}/$(date +%s%N)-$$"\n`);
  await chmod(script, 0o755);
  return script;
}

async function filesIn(directory: string): Promise<Buffer[]> {
  return Promise.all((await readdir(directory)).sort().map((name) => readFile(join(directory, name))));
}

describe.skipIf(!has('fetchmail'))('fetchmail over POP3', () => {
  it('retrieves the INBOX through an MDA with UIDL, and deletes what it fetched (no keep)', async () => {
    await deliver('pop one', '第一封\r\n');
    await deliver('pop two', 'second\r\n');
    const items = (await inbox(server, account.token)).list;
    const raws = await Promise.all(items.map((item) => rawOf(item.id)));
    const out = join(work, 'fetchmail-out');
    const mda = await savingScript(out);
    const rc = join(work, 'fetchmailrc');
    // sslproto '': no opportunistic STLS (the test certificate is self-signed); plain POP3 on loopback.
    await writeFile(
      rc,
      [
        'set no syslog',
        'set no bouncemail',
        `poll 127.0.0.1 service ${server.pop3Port} protocol pop3 uidl auth password:`,
        `  user "${account.email}" there with password "${account.password}" is "${userInfo().username}" here`,
        `  no keep mda "${mda}" sslproto ''`,
        '',
      ].join('\n'),
    );
    await chmod(rc, 0o600); // fetchmail refuses a readable run control file
    const env = { ...process.env, HOME: work, FETCHMAILHOME: work };
    await run(
      'fetchmail',
      ['-f', rc, '--idfile', join(work, 'fetchmail.ids'), '--pidfile', join(work, 'fetchmail.pid')],
      { timeout: 60_000, env },
    );
    // fetchmail prepends its own Received: header (a folded three-line field) and writes LF lines.
    const got = (await filesIn(out))
      .map((bytes) => bytes.toString('latin1').replace(/^Received: [^\n]*\n(?:[ \t][^\n]*\n)*/, ''))
      .sort();
    expect(got).toEqual(raws.map((bytes) => asLf(bytes).toString('latin1')).sort());
    expect((await inbox(server, account.token)).list).toHaveLength(0);
  });
});

describe.skipIf(!has('mutt') || !has('script'))('mutt in batch mode over IMAP', () => {
  /*
   * mutt is a screen program: without a terminal it turns to sending mail ("No recipients
   * specified"). util-linux's `script` gives it a pseudo-terminal; the keys are `push`ed at start,
   * end with <quit>, and `quit=yes`/`confirm*=no`/`wait_key=no` leave no question to answer.
   * A timeout kills it should a prompt appear anyway.
   */
  it('pipes every INBOX message out byte for byte and deletes one, seen on the web', async () => {
    await deliver('mutt keep', 'keep me\r\n');
    await deliver('mutt drop', 'drop me\r\n');
    const items = (await inbox(server, account.token)).list;
    const raws = await Promise.all(items.map((item) => rawOf(item.id)));
    const out = join(work, 'mutt-out');
    const save = await savingScript(out);
    const rc = join(work, 'muttrc');
    await writeFile(
      rc,
      [
        `set imap_user="${account.email}"`,
        `set imap_pass="${account.password}"`,
        'set ssl_starttls=no ssl_force_tls=no',
        `set folder="imap://127.0.0.1:${server.imapPort}/"`,
        'set spoolfile="+INBOX"',
        'set confirmcreate=no confirmappend=no move=no quit=yes delete=yes wait_key=no',
        'set header_cache="" message_cachedir="" imap_passive=no',
        'set pipe_split=yes pipe_decode=no',
        '',
      ].join('\n'),
    );
    const keys =
      `<tag-pattern>~A<enter><tag-prefix><pipe-message>${save}<enter>` +
      '<untag-pattern>~A<enter><delete-pattern>~s mutt.drop<enter><sync-mailbox><quit>';
    const command = `mutt -n -F '${rc}' -f 'imap://127.0.0.1:${server.imapPort}/INBOX' -e 'push "${keys}"'`;
    const shell = join(work, 'mutt.sh');
    await writeFile(shell, `exec ${command}\n`);
    await run('script', ['-qec', `sh '${shell}'`, '/dev/null'], {
      timeout: 60_000,
      env: { ...process.env, TERM: 'vt100', HOME: work },
    });
    // pipe_split ends each piped message with pipe_sep (a newline).
    const got = (await filesIn(out)).map((bytes) => bytes.toString('latin1').replace(/\n$/, '')).sort();
    expect(got).toEqual(raws.map((bytes) => asLf(bytes).toString('latin1')).sort());
    expect((await inbox(server, account.token)).list.map((item) => item.subject)).toEqual(['mutt keep']);
  });
});
