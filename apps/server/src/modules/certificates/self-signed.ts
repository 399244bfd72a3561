import { X509Certificate } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';

const DAY_MS = 86_400_000;
/** Renewed when less than this is left, so a long-running server never offers an expired one. */
const RENEW_BEFORE_MS = 30 * DAY_MS;
const VALID_FOR_MS = 2 * 365 * DAY_MS;

export interface KeyPair {
  key: Buffer;
  cert: Buffer;
}

/**
 * A self-signed certificate for MAIL_HOSTNAME, for STARTTLS on the inbound SMTP listener until the
 * operator installs a real one in DATA_DIR/certs. Senders use opportunistic TLS there (RFC 7435):
 * they encrypt with any certificate rather than send in clear, so this protects mail in transit
 * without pretending to be an operator certificate. It lives in DATA_DIR/self-signed/, apart from
 * DATA_DIR/certs, so it never shows on the certificates screen, and HTTPS and SMTPS never use it.
 * Without it smtp-server would answer STARTTLS with its built-in, expired `localhost` test key.
 */
export async function selfSignedCertificate(
  dataDir: string,
  hostname: string,
  now = Date.now(),
): Promise<KeyPair> {
  const directory = join(dataDir, 'self-signed');
  const certFile = join(directory, 'fullchain.pem');
  const keyFile = join(directory, 'privkey.pem');
  try {
    const [cert, key] = await Promise.all([readFile(certFile), readFile(keyFile)]);
    const parsed = new X509Certificate(cert);
    const coversHost = (parsed.subjectAltName ?? '').split(/,\s*/).includes(`DNS:${hostname.toLowerCase()}`);
    if (coversHost && Date.parse(parsed.validTo) - now > RENEW_BEFORE_MS) return { key, cert };
  } catch {
    // none yet, or unreadable: make a new one
  }
  const pems = await generate([{ name: 'commonName', value: hostname }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - DAY_MS),
    notAfterDate: new Date(now + VALID_FOR_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: hostname.toLowerCase() }] },
    ],
  });
  await mkdir(directory, { recursive: true, mode: 0o700 });
  // Written whole and renamed into place: a crash leaves the old pair or the new one, never half.
  for (const [file, text] of [
    [keyFile, pems.private],
    [certFile, pems.cert],
  ] as const) {
    await writeFile(`${file}.tmp`, text, { mode: 0o600 });
    await chmod(`${file}.tmp`, 0o600);
    await rename(`${file}.tmp`, file);
  }
  return { key: Buffer.from(pems.private), cert: Buffer.from(pems.cert) };
}
