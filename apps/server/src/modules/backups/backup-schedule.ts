import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type BackupTarget, createBackup } from './backup-service.js';

const HOUR_MS = 3_600_000;
const NAME = /^youju-\d{8}-\d{6}\.tar\.gz$/;

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/** The folder of scheduled backups: `DATA_DIR/backups` (left out of the backups themselves). */
export function scheduledBackupFolder(dataDir: string): string {
  return join(dataDir, 'backups');
}

function backupName(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `youju-${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}-${pad(
    now.getUTCHours(),
  )}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}.tar.gz`;
}

/** The scheduled backups in the folder, newest first. */
async function listBackups(folder: string): Promise<Array<{ path: string; mtimeMs: number }>> {
  const found: Array<{ path: string; mtimeMs: number }> = [];
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (!NAME.test(name)) continue;
    const path = join(folder, name);
    const info = await stat(path).catch(() => null);
    if (info?.isFile()) found.push({ path, mtimeMs: info.mtimeMs });
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs || b.path.localeCompare(a.path));
}

/**
 * Takes a backup into `DATA_DIR/backups` whenever the newest one there is older than the
 * `backupIntervalHours` setting (0 = off), and keeps the `backupKeep` newest. It looks every
 * `checkEveryMs` (a minute), so a changed setting applies without a restart, and the time of the
 * last backup survives restarts (it is the newest file's). Each process backs up into its own
 * DATA_DIR.
 */
export function startScheduledBackups(deps: {
  target: BackupTarget;
  settings: () => Promise<{ backupIntervalHours: number; backupKeep: number }>;
  log: Log;
  checkEveryMs: number;
}): { stop(): void; runDue(): Promise<string | null> } {
  const folder = scheduledBackupFolder(deps.target.dataDir);
  let running: Promise<string | null> | null = null;

  async function runDue(): Promise<string | null> {
    const { backupIntervalHours, backupKeep } = await deps.settings();
    if (backupIntervalHours <= 0) return null;
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // work files a stopped process left behind
    for (const name of await readdir(folder)) {
      if (name.startsWith('.youju-backup-') || name.includes('.partial-')) {
        await rm(join(folder, name), { recursive: true, force: true });
      }
    }
    const existing = await listBackups(folder);
    const newest = existing[0];
    let written: string | null = null;
    if (!newest || Date.now() - newest.mtimeMs >= backupIntervalHours * HOUR_MS) {
      written = join(folder, backupName(new Date()));
      await createBackup(deps.target, written);
      deps.log.info(`scheduled backup written: ${written}`);
    }
    for (const old of (await listBackups(folder)).slice(Math.max(1, backupKeep))) {
      await rm(old.path, { force: true });
    }
    return written;
  }

  const check = () => {
    if (running) return;
    running = runDue()
      .catch((error: unknown) => {
        deps.log.warn(`scheduled backup failed: ${(error as Error).message}`);
        return null;
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(check, deps.checkEveryMs);
  timer.unref();
  const first = setTimeout(check, Math.min(deps.checkEveryMs, 5_000));
  first.unref();
  return {
    stop() {
      clearInterval(timer);
      clearTimeout(first);
    },
    runDue,
  };
}
