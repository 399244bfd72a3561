import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Depth of DATA_DIR's folders walked at start (certs/<host>/, uploads/, tmp/: all shallow). */
const MAX_DEPTH = 6;

/**
 * DATA_DIR holds the database, DKIM and TLS private keys, TSIG secrets, card codes and the EPay key:
 * nobody but the service's own user may read it. New files are private by the process umask
 * (0077, set here); this pass also mends what an older version, a copy or a restore left readable:
 * folders 0700, files 0600. Symbolic links (an operator's certificates linked from certbot's folder)
 * are left alone, and so is what they point to.
 */
export async function secureDataDir(dataDir: string): Promise<void> {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask; the pass below still mends every mode.
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await walk(dataDir, 0);
}

async function walk(directory: string, depth: number): Promise<void> {
  await chmod(directory, 0o700);
  if (depth >= MAX_DEPTH) return;
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) await walk(path, depth + 1);
    else if (entry.isFile() && ((await lstat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  }
}
