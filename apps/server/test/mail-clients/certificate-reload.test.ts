import { X509Certificate } from 'node:crypto';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCertificate, makeCertificate, type PemPair } from '../support/certificates.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createMailAccount, type MailAccount, RawLineClient } from './mail-client-helpers.js';

/**
 * reloadCertificates reaches the mail-client listeners without a restart (issue 14: certificates
 * "reloaded without restart"): the files under DATA_DIR/certs/<host>/ are replaced, the API is
 * called, and the next IMAPS/POP3S handshake and the next STARTTLS/STLS present the new pair while
 * a session opened before goes on working.
 */
const HOST = 'mail.reload.youju.test';

let server: TestServer;
let admin: string;
let account: MailAccount;
let a: PemPair;
let b: PemPair;

const fingerprint = (pair: PemPair) => new X509Certificate(pair.cert).fingerprint256;

/** Implicit TLS: the certificate presented, and the socket (greeting read) for further use. */
async function implicit(port: number, keep = false) {
  const socket = tlsConnect({ host: '127.0.0.1', port, servername: HOST, rejectUnauthorized: false });
  await new Promise((resolve, reject) => {
    socket.once('secureConnect', resolve);
    socket.once('error', reject);
  });
  await new Promise((resolve) => socket.once('data', resolve));
  const presented = socket.getPeerCertificate().fingerprint256;
  if (!keep) socket.destroy();
  return { socket, presented };
}

/** STARTTLS (IMAP) or STLS (POP3) on the plain port: the certificate the upgrade presents. */
async function upgraded(port: number, protocol: 'imap' | 'pop3'): Promise<string> {
  const client = await RawLineClient.connect(port);
  await client.until(/\r\n/);
  if (protocol === 'imap') await client.command('s', 'STARTTLS');
  else {
    client.send('STLS\r\n');
    await client.until(/^\+OK[^\r]*\r\n/m);
  }
  await client.startTls();
  const presented = (client.socket as import('node:tls').TLSSocket).getPeerCertificate().fingerprint256;
  client.close();
  return presented;
}

/** Sends one command line and collects what comes back until its tagged answer. */
function tagged(socket: import('node:tls').TLSSocket, tag: string, line: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      if (new RegExp(`^${tag} (OK|NO|BAD)`, 'm').test(text)) {
        socket.off('data', read);
        resolve(text);
      }
    };
    socket.on('data', read);
    socket.write(`${line}\r\n`);
  });
}

beforeAll(async () => {
  a = makeCertificate([HOST]);
  b = makeCertificate([HOST]);
  server = await startTestServer({
    env: { MAIL_HOSTNAME: HOST },
    mailClients: {},
    prepareDataDir: (dataDir) => installCertificate(dataDir, HOST, a),
  });
  admin = await server.adminToken();
  account = await createMailAccount(server, 'reload');
});
afterAll(async () => server?.close());

describe('certificate reload on IMAPS, POP3S, STARTTLS and STLS', () => {
  it('presents the new pair after the files change and reloadCertificates, keeping an open session', async () => {
    const imaps = server.imapsPort as number;
    const pop3s = server.pop3sPort as number;
    expect((await implicit(imaps)).presented).toBe(fingerprint(a));
    expect((await implicit(pop3s)).presented).toBe(fingerprint(a));
    expect(await upgraded(server.imapPort as number, 'imap')).toBe(fingerprint(a));
    expect(await upgraded(server.pop3Port as number, 'pop3')).toBe(fingerprint(a));

    const open = await implicit(imaps, true);
    expect(await tagged(open.socket, 'x', `x LOGIN ${account.email} ${account.password}`)).toMatch(/^x OK/m);

    await installCertificate(server.dataDir, HOST, b);
    // Files alone change nothing until the reload (no watcher): still A.
    expect((await implicit(imaps)).presented).toBe(fingerprint(a));
    const reloaded = await server.api('POST', 'user/reloadCertificates', { token: admin });
    expect(reloaded.body.error).toBe(0);

    expect((await implicit(imaps)).presented).toBe(fingerprint(b));
    expect((await implicit(pop3s)).presented).toBe(fingerprint(b));
    expect(await upgraded(server.imapPort as number, 'imap')).toBe(fingerprint(b));
    expect(await upgraded(server.pop3Port as number, 'pop3')).toBe(fingerprint(b));

    // The session opened under A goes on.
    expect(await tagged(open.socket, 'y', 'y SELECT INBOX')).toMatch(/^y OK/m);
    expect(open.socket.getPeerCertificate().fingerprint256).toBe(fingerprint(a));
    open.socket.destroy();
  });
});
