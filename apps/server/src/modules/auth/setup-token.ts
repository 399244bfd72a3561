import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The one-time set-up token of a fresh install (startAuth needs it): printed to the log and
 * written to DATA_DIR/setup-token, so only whoever can read the server's log or disk can claim it.
 */
export function setupTokenFile(dataDir: string): string {
  return join(dataDir, 'setup-token');
}

export async function ensureSetupToken(dataDir: string): Promise<string> {
  const file = setupTokenFile(dataDir);
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 16) return existing;
  } catch {
    // none yet
  }
  const token = randomBytes(18).toString('base64url');
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  return token;
}

export async function matchesSetupToken(dataDir: string, candidate: string): Promise<boolean> {
  let expected: string;
  try {
    expected = (await readFile(setupTokenFile(dataDir), 'utf8')).trim();
  } catch {
    return false;
  }
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return expected.length > 0 && timingSafeEqual(digest(expected), digest(candidate.trim()));
}

export async function removeSetupToken(dataDir: string): Promise<void> {
  await rm(setupTokenFile(dataDir), { force: true });
}
