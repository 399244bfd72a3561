import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const OPENSSL = '/usr/bin/openssl';

export interface PemPair {
  cert: string;
  key: string;
}

/** A self-signed certificate for `hostnames` (SAN) made by openssl, valid from now for `days`. */
export function makeCertificate(hostnames: string[], days = 30): PemPair {
  const directory = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
  try {
    execFileSync(
      OPENSSL,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-keyout',
        join(directory, 'key.pem'),
        '-out',
        join(directory, 'cert.pem'),
        '-days',
        String(days),
        '-subj',
        `/CN=${hostnames[0]}`,
        '-addext',
        `subjectAltName=${hostnames.map((name) => `DNS:${name}`).join(',')}`,
      ],
      { stdio: 'ignore' },
    );
    return {
      cert: execFileSync('cat', [join(directory, 'cert.pem')], { encoding: 'utf8' }),
      key: execFileSync('cat', [join(directory, 'key.pem')], { encoding: 'utf8' }),
    };
  } finally {
    execFileSync('rm', ['-rf', directory]);
  }
}

/** A certificate that expired in 2021, signed with `openssl ca` (req cannot back-date). */
export async function makeExpiredCertificate(hostname: string): Promise<PemPair> {
  const directory = await mkdtemp(join(tmpdir(), 'youju-ca-'));
  try {
    await writeFile(join(directory, 'index.txt'), '');
    await writeFile(join(directory, 'serial'), '01\n');
    await writeFile(
      join(directory, 'ca.cnf'),
      `[ca]\ndefault_ca = d\n[d]\ndatabase = ${directory}/index.txt\nnew_certs_dir = ${directory}\nserial = ${directory}/serial\ndefault_md = sha256\npolicy = p\ncopy_extensions = copy\n[p]\ncommonName = supplied\n`,
    );
    const run = (args: string[]) => execFileSync(OPENSSL, args, { cwd: directory, stdio: 'ignore' });
    run([
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'req.csr',
      '-subj',
      `/CN=${hostname}`,
      '-addext',
      `subjectAltName=DNS:${hostname}`,
    ]);
    run([
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-selfsign',
      '-keyfile',
      'key.pem',
      '-in',
      'req.csr',
      '-out',
      'cert.pem',
      '-startdate',
      '20200101000000Z',
      '-enddate',
      '20210101000000Z',
    ]);
    return {
      cert: await readFile(join(directory, 'cert.pem'), 'utf8'),
      key: await readFile(join(directory, 'key.pem'), 'utf8'),
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Writes a pair where certbot would: DATA_DIR/certs/<folder>/{fullchain,privkey}.pem. */
export async function installCertificate(dataDir: string, folder: string, pair: PemPair): Promise<void> {
  const directory = join(dataDir, 'certs', folder);
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'fullchain.pem'), pair.cert);
  await writeFile(join(directory, 'privkey.pem'), pair.key);
}
