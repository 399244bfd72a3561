import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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
  const pems = createSelfSigned(hostname.toLowerCase(), now - DAY_MS, now + VALID_FOR_MS);
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

// A minimal X.509 v3 certificate (RFC 5280 section 4.1) in DER (X.690), signed with ECDSA P-256 and
// SHA-256 (RFC 5758 section 3.2): node:crypto signs but does not build certificates, and the few
// fields a TLS server certificate needs are simpler to encode than a dependency is to trust.

function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const length = body.length;
  const head =
    length < 0x80
      ? Buffer.from([tag, length])
      : length < 0x100
        ? Buffer.from([tag, 0x81, length])
        : Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  return Buffer.concat([head, body]);
}

const sequence = (...content: Buffer[]) => der(0x30, ...content);

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return der(0x06, Buffer.from(bytes));
}

/** UTCTime (YYMMDDHHMMSSZ) up to 2049, GeneralizedTime after (RFC 5280 section 4.1.2.5). */
function time(epochMs: number): Buffer {
  const iso = new Date(epochMs).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const year = Number(iso.slice(0, 4));
  return year < 2050 ? der(0x17, Buffer.from(`${iso.slice(2)}Z`)) : der(0x18, Buffer.from(`${iso}Z`));
}

function createSelfSigned(hostname: string, notBefore: number, notAfter: number) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = sequence(der(0x31, sequence(oid('2.5.4.3'), der(0x0c, Buffer.from(hostname)))));
  const signatureAlgorithm = sequence(oid('1.2.840.10045.4.3.2'));
  const serial = randomBytes(16);
  // A positive INTEGER in minimal DER form (X.690 8.3.2): first byte neither zero nor high-bit.
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  const extension = (id: string, critical: boolean, value: Buffer) =>
    sequence(oid(id), ...(critical ? [der(0x01, Buffer.from([0xff]))] : []), der(0x04, value));
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    signatureAlgorithm,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der(
      0xa3,
      sequence(
        extension('2.5.29.19', true, sequence()),
        extension('2.5.29.15', true, der(0x03, Buffer.from([0x07, 0x80]))),
        extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))),
        extension('2.5.29.17', false, sequence(der(0x82, Buffer.from(hostname)))),
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, signatureAlgorithm, der(0x03, Buffer.from([0]), signature));
  const base64 = certificate.toString('base64').replace(/.{64}/g, '$&\n');
  return {
    private: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${base64.replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`,
  };
}
