import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Makes SQLite commits durable off the thread that commits (the store worker's group commit).
 *
 * With `synchronous = FULL` a WAL-mode commit is an fsync of the `-wal` file inside `COMMIT`:
 * better-sqlite3 is synchronous, so the store worker's thread stood still for every one (a third
 * of its time on a loaded machine). A connection opened with `walSync: 'caller'` (database.ts)
 * commits with `synchronous = NORMAL` instead, which writes the WAL frames but does not sync them,
 * and its caller syncs the file with this function before it acknowledges anything: committed
 * frames that are on disk are what FULL guarantees, so "250 means durable" holds across power loss
 * as well as a crash (SQLite, "Write-Ahead Logging", section 5 and PRAGMA synchronous: NORMAL
 * still syncs the WAL before each checkpoint and the database after it, so a checkpoint never
 * moves unsynced frames into the database file). The sync runs in libuv's thread pool, so the
 * next batch is parsed and committed while the last one is being synced.
 *
 * Calls are coalesced: `sync()` resolves after an fdatasync that started after the call (one in
 * flight that started earlier may miss frames written just before the call), and every caller
 * arriving while one runs shares the next one.
 */
export function createWalSync(walPath: string): { sync(): Promise<void>; close(): Promise<void> } {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  // Opened at the first sync (after the first commit: the file exists then) and kept: SQLite deletes
  // the WAL only when the last connection to the database closes, and the connection this syncs
  // for is open for as long as it is used (database.ts closes this with it).
  let handle: Promise<FileHandle> | null = null;

  // The directory entry of the WAL file once too: SQLite syncs it when the connection that creates
  // the file first syncs, which may be this one, whose commits no longer sync.
  let directorySynced = false;

  async function syncOnce(): Promise<void> {
    handle ??= open(walPath, 'r');
    const opened = handle;
    try {
      await (await opened).datasync();
      if (!directorySynced) {
        const directory = await open(dirname(walPath), 'r');
        try {
          await directory.sync();
        } finally {
          await directory.close();
        }
        directorySynced = true;
      }
    } catch (error) {
      // Opened again next time: the file may not have been there yet.
      if (handle === opened) handle = null;
      await opened.then((file) => file.close()).catch(() => undefined);
      throw error;
    }
  }

  function start(): Promise<void> {
    const sync = syncOnce().finally(() => {
      if (running === sync) running = null;
    });
    running = sync;
    return sync;
  }

  return {
    sync(): Promise<void> {
      if (!running) return start();
      queued ??= running
        .catch(() => undefined)
        .then(() => {
          queued = null;
          return start();
        });
      return queued;
    },
    async close(): Promise<void> {
      await Promise.allSettled([running, queued]);
      const opened = handle;
      handle = null;
      if (opened) await opened.then((file) => file.close()).catch(() => undefined);
    },
  };
}
