import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Certificate {
  key: Buffer;
  cert: Buffer;
}

/**
 * The certificate for STARTTLS (RFC 3207) from DATA_DIR/certs/<MAIL_HOSTNAME>/, in the layout
 * certbot produces (fullchain.pem, privkey.pem). Null when there is none: STARTTLS is then not
 * offered rather than offered with smtp-server's built-in test certificate, whose key is public.
 */
export async function loadCertificate(dataDir: string, hostname: string): Promise<Certificate | null> {
  const folder = join(dataDir, 'certs', hostname);
  try {
    const [cert, key] = await Promise.all([
      readFile(join(folder, 'fullchain.pem')),
      readFile(join(folder, 'privkey.pem')),
    ]);
    return { key, cert };
  } catch {
    return null;
  }
}
