import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Certificate, CertificateStatus } from '@youju/contract';

/** One folder of DATA_DIR/certs as read from disk (certbot's layout: fullchain.pem + privkey.pem). */
export interface LoadedCertificate extends Certificate {
  directory: string;
  status: CertificateStatus;
  /** PEM texts, kept for servers that take key/cert options (smtp-server's default context) */
  key: Buffer | null;
  cert: Buffer | null;
  /** only for status ok: an expired or mismatched certificate is never served */
  context: SecureContext | null;
}

export const CERTIFICATE_FILE = 'fullchain.pem';
export const KEY_FILE = 'privkey.pem';

/** Host names a certificate is valid for: its SAN dNSNames (RFC 6125 6.4.4), else its CN. */
function hostnamesOf(certificate: X509Certificate): string[] {
  const names = (certificate.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4).toLowerCase());
  if (names.length > 0) return names;
  const commonName = /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1];
  return commonName ? [commonName.toLowerCase()] : [];
}

function invalid(directory: string, detail: string): LoadedCertificate {
  return {
    directory,
    hostnames: [directory],
    notAfter: null,
    status: 'invalid',
    detail,
    key: null,
    cert: null,
    context: null,
  };
}

/** Checks one folder's pair: readable, the key belongs to the certificate, within its validity. */
export function inspectCertificate(
  directory: string,
  certPem: Buffer,
  keyPem: Buffer,
  now = Date.now(),
): LoadedCertificate {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certPem);
  } catch {
    return invalid(directory, `${CERTIFICATE_FILE} 不是有效的 PEM 证书`);
  }
  const base = {
    directory,
    hostnames: hostnamesOf(certificate),
    notAfter: new Date(certificate.validTo).toISOString(),
    notBefore: new Date(certificate.validFrom).toISOString(),
    issuer: certificate.issuer.replace(/\n/g, ', '),
    key: keyPem,
    cert: certPem,
  };
  let keyMatches = false;
  try {
    keyMatches = certificate.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return { ...base, status: 'invalid', detail: `${KEY_FILE} 不是有效的 PEM 私钥`, context: null };
  }
  if (!keyMatches) {
    return {
      ...base,
      status: 'mismatch',
      detail: `${KEY_FILE} 与证书不匹配，请放入签发该证书时使用的私钥`,
      context: null,
    };
  }
  if (Date.parse(certificate.validTo) <= now) {
    return {
      ...base,
      status: 'expired',
      detail: '证书已过期，请续期（例如 certbot renew）后重新加载',
      context: null,
    };
  }
  if (Date.parse(certificate.validFrom) > now) {
    return { ...base, status: 'invalid', detail: '证书尚未生效，请检查本机时间', context: null };
  }
  try {
    return { ...base, status: 'ok', context: createSecureContext({ key: keyPem, cert: certPem }) };
  } catch (error) {
    return { ...base, status: 'invalid', detail: `证书无法使用：${(error as Error).message}`, context: null };
  }
}

/** Reads every folder of `certsDir` at start (before any listener exists, so synchronously). */
export function readCertificatesSync(certsDir: string): LoadedCertificate[] {
  if (!existsSync(certsDir)) return [];
  const loaded: LoadedCertificate[] = [];
  for (const directory of readdirSync(certsDir).sort()) {
    const folder = join(certsDir, directory);
    if (!statSync(folder).isDirectory()) continue;
    try {
      loaded.push(
        inspectCertificate(
          directory,
          readFileSync(join(folder, CERTIFICATE_FILE)),
          readFileSync(join(folder, KEY_FILE)),
        ),
      );
    } catch {
      loaded.push(invalid(directory, `缺少 ${CERTIFICATE_FILE} 或 ${KEY_FILE}`));
    }
  }
  return loaded;
}

/** The same, without blocking the event loop (reloadCertificates while serving). */
export async function readCertificates(certsDir: string): Promise<LoadedCertificate[]> {
  let entries: string[];
  try {
    entries = (await readdir(certsDir)).sort();
  } catch {
    return [];
  }
  const loaded: LoadedCertificate[] = [];
  for (const directory of entries) {
    const folder = join(certsDir, directory);
    if (!(await stat(folder)).isDirectory()) continue;
    try {
      const [cert, key] = await Promise.all([
        readFile(join(folder, CERTIFICATE_FILE)),
        readFile(join(folder, KEY_FILE)),
      ]);
      loaded.push(inspectCertificate(directory, cert, key));
    } catch {
      loaded.push(invalid(directory, `缺少 ${CERTIFICATE_FILE} 或 ${KEY_FILE}`));
    }
  }
  return loaded;
}

/**
 * Writes a certificate into `certsDir/<directory>/` in certbot's layout (privkey.pem 0600, cert.pem,
 * chain.pem, fullchain.pem). Each file is written whole under a temporary name (a dot name, which
 * no reader looks at) and renamed into place, the key first: a crash leaves each file old or new,
 * never half written, and a reload never reads a torn file.
 */
export async function writeCertificateFiles(
  certsDir: string,
  directory: string,
  pems: { privkey: string; cert: string; chain: string; fullchain: string },
): Promise<void> {
  const folder = join(certsDir, directory);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const files: Array<[string, string, number]> = [
    [KEY_FILE, pems.privkey, 0o600],
    ['cert.pem', pems.cert, 0o644],
    ['chain.pem', pems.chain, 0o644],
    [CERTIFICATE_FILE, pems.fullchain, 0o644],
  ];
  for (const [name, text, mode] of files) {
    const temporary = join(folder, `.${name}.tmp-${process.pid}`);
    await writeFile(temporary, text, { mode });
    await chmod(temporary, mode);
    await rename(temporary, join(folder, name));
  }
}
