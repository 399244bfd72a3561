import { join } from 'node:path';
import type { SecureContext } from 'node:tls';
import type { Certificate } from '@youju/contract';
import { type LoadedCertificate, readCertificates, readCertificatesSync } from './certificate-store.js';

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/** Told after each reload; it reads what it needs from the service (e.g. `defaultCertificate()`). */
export type CertificateListener = () => void;

/** Does a certificate name cover `servername`? A wildcard covers exactly one label (RFC 6125 6.4.3). */
function covers(pattern: string, servername: string): boolean {
  if (pattern === servername) return true;
  if (!pattern.startsWith('*.')) return false;
  const dot = servername.indexOf('.');
  return dot > 0 && servername.slice(dot + 1) === pattern.slice(2);
}

/**
 * TLS certificates under DATA_DIR/certs/<hostname>/ for every listener (SMTP STARTTLS, SMTPS, optional
 * HTTPS). Listeners ask for a context per SNI name at each handshake, so a reload takes effect for the
 * next connection while open ones keep theirs. Expired, mismatched or unreadable pairs are reported and
 * never served.
 */
export function createCertificateService(options: { dataDir: string; mailHostname: string; log?: Logger }) {
  const certsDir = join(options.dataDir, 'certs');
  const mailHostname = options.mailHostname.toLowerCase();
  let loaded: LoadedCertificate[] = readCertificatesSync(certsDir);
  const listeners = new Set<CertificateListener>();

  function servable(): LoadedCertificate[] {
    return loaded.filter((entry) => entry.status === 'ok');
  }

  function find(servername: string): LoadedCertificate | null {
    const name = servername.toLowerCase().replace(/\.$/, '');
    const usable = servable();
    // The folder named after the host wins; then any certificate whose names cover it.
    return (
      usable.find((entry) => entry.directory.toLowerCase() === name) ??
      usable.find((entry) => entry.hostnames.includes(name)) ??
      usable.find((entry) => entry.hostnames.some((pattern) => covers(pattern, name))) ??
      null
    );
  }

  function report(): Certificate[] {
    return loaded.map(({ directory, hostnames, notAfter, notBefore, issuer, status, detail }) => ({
      directory,
      hostnames,
      notAfter,
      ...(notBefore !== undefined ? { notBefore } : {}),
      ...(issuer !== undefined ? { issuer } : {}),
      status,
      ...(detail !== undefined ? { detail } : {}),
    }));
  }

  function warnAbout(entries: LoadedCertificate[]): void {
    for (const entry of entries) {
      if (entry.status !== 'ok')
        options.log?.warn(`证书 ${entry.directory} 未启用：${entry.detail ?? entry.status}`);
    }
  }
  warnAbout(loaded);

  const service = {
    certsDir,

    /** Every folder with its host names, expiry and status (getCertificates). */
    list: report,

    /** The context for an SNI name, or null when no usable certificate covers it. */
    secureContextFor(servername: string): SecureContext | null {
      return find(servername)?.context ?? null;
    },

    /** The pair served when the client sends no SNI name: MAIL_HOSTNAME's, else the first usable one. */
    defaultCertificate(): { key: Buffer; cert: Buffer } | null {
      const entry = find(mailHostname) ?? servable()[0];
      return entry?.key && entry.cert ? { key: entry.key, cert: entry.cert } : null;
    },

    /** For `tls.createServer({ SNICallback })` and smtp-server's `SNICallback` option. */
    sniCallback(servername: string, callback: (error: Error | null, context?: SecureContext) => void): void {
      const context = find(servername)?.context;
      callback(null, context ?? undefined);
    },

    /** Called after each reload, to swap default contexts (smtp-server's `updateSecureContext`). */
    onReload(listener: CertificateListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** reloadCertificates: re-reads the folder, swaps the map, tells the listeners. */
    async reload(): Promise<Certificate[]> {
      const next = await readCertificates(certsDir);
      loaded = next;
      warnAbout(next);
      for (const listener of listeners) {
        try {
          listener();
        } catch (error) {
          options.log?.warn(`证书重新加载通知失败：${(error as Error).message}`);
        }
      }
      options.log?.info(`已重新加载 ${next.length} 个证书目录`);
      return report();
    },
  };
  return service;
}

export type CertificateService = ReturnType<typeof createCertificateService>;
