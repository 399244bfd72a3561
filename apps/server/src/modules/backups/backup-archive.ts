import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { Engine } from '../../db/database.js';
import {
  checkEntryPath,
  readTar,
  type TarEntry,
  TarFormatError,
  writeTar,
} from '../../protocols/tar/ustar.js';

/**
 * A Youju backup: one gzip-compressed ustar archive whose first entry, `manifest.json`, lists
 * every other entry with its size and SHA-256, and says which engine, version and migrations
 * produced it. Restoring checks the whole archive against the manifest before writing anything.
 *
 * - `database/youju.sqlite`: an SQLite snapshot (VACUUM INTO), or
 * - `database/<table>.jsonl`: a PostgreSQL table, one JSON array of values per row (bytes as
 *   `{"b64": "…"}`), the tables in an order that satisfies their foreign keys;
 * - `files/<path>`: the files of DATA_DIR (certificates, keys) at the time of the backup.
 */

export const MANIFEST_PATH = 'manifest.json';
const FORMAT = 'youju-backup';
const FORMAT_VERSION = 1;

export interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface ManifestTable {
  name: string;
  columns: string[];
  rows: number;
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  youjuVersion: string;
  engine: Engine;
  createdAt: string;
  /** Kysely migrations applied to the database that was saved */
  migrations: string[];
  /** PostgreSQL: the tables in the order they were saved (and are restored) */
  tables: ManifestTable[];
  entries: ManifestEntry[];
}

/** A backup that cannot be restored: damaged, not a backup, or from an unknown format. */
export class BackupFormatError extends Error {}

export function newManifest(fields: Omit<Manifest, 'format' | 'formatVersion' | 'createdAt'>): Manifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, createdAt: new Date().toISOString(), ...fields };
}

function parseManifest(text: string): Manifest {
  let value: Manifest;
  try {
    value = JSON.parse(text) as Manifest;
  } catch {
    throw new BackupFormatError('清单（manifest.json）不是有效的 JSON');
  }
  if (value?.format !== FORMAT || typeof value.formatVersion !== 'number') {
    throw new BackupFormatError('不是 Youju 的备份文件');
  }
  if (value.formatVersion > FORMAT_VERSION) {
    throw new BackupFormatError(
      `备份格式版本 ${value.formatVersion} 比此版本支持的新，请用更新的 Youju 恢复`,
    );
  }
  if (
    (value.engine !== 'sqlite' && value.engine !== 'postgres') ||
    !Array.isArray(value.entries) ||
    !Array.isArray(value.migrations) ||
    !Array.isArray(value.tables)
  ) {
    throw new BackupFormatError('清单（manifest.json）内容不完整');
  }
  const seen = new Set<string>();
  for (const entry of value.entries) {
    if (
      typeof entry?.path !== 'string' ||
      !Number.isSafeInteger(entry.size) ||
      typeof entry.sha256 !== 'string' ||
      entry.path === MANIFEST_PATH ||
      seen.has(entry.path)
    ) {
      throw new BackupFormatError('清单（manifest.json）中的条目无效');
    }
    try {
      checkEntryPath(entry.path);
    } catch {
      throw new BackupFormatError(`清单中的路径不安全：${JSON.stringify(entry.path)}`);
    }
    seen.add(entry.path);
  }
  return value;
}

/** Hashes a file while reading it: its size and SHA-256. */
export async function hashFile(path: string): Promise<ManifestEntry & { path: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { path, size, sha256: hash.digest('hex') };
}

/**
 * Writes the archive to `out` (mode 0600): the manifest, then each entry's file from `sourceOf`.
 * It is written beside `out` under a temporary name and renamed when complete, so `out` is never
 * a half-written archive.
 */
export async function writeArchive(
  out: string,
  manifest: Manifest,
  sourceOf: (entry: ManifestEntry) => string,
): Promise<void> {
  const partial = `${out}.partial-${process.pid}`;
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
  const mtime = Math.floor(Date.now() / 1000);
  const inputs = [
    { path: MANIFEST_PATH, size: manifestBytes.length, mode: 0o600, mtime, content: [manifestBytes] },
    ...manifest.entries.map((entry) => ({
      path: entry.path,
      size: entry.size,
      mode: 0o600,
      mtime,
      content: createReadStream(sourceOf(entry)),
    })),
  ];
  try {
    await pipeline(
      Readable.from(writeTar(inputs)),
      createGzip({ level: 6 }),
      createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
    );
    const handle = await open(partial, 'r');
    await handle.sync();
    await handle.close();
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** One pass over the archive's entries after the manifest, each checked against it. */
export async function readArchive(
  file: string,
  onEntry: (entry: TarEntry, expected: ManifestEntry, manifest: Manifest) => Promise<void>,
  onManifest?: (manifest: Manifest) => Promise<void>,
): Promise<Manifest> {
  const gunzip = createGunzip();
  const source = createReadStream(file).pipe(gunzip);
  let manifest: Manifest | null = null;
  const seen = new Set<string>();
  try {
    for await (const entry of readTar(source)) {
      if (manifest === null) {
        if (entry.path !== MANIFEST_PATH)
          throw new BackupFormatError('备份文件的第一项不是清单（manifest.json）');
        if (entry.size > 64 * 1024 * 1024) throw new BackupFormatError('清单（manifest.json）过大');
        const pieces: Buffer[] = [];
        for await (const piece of entry.content) pieces.push(piece);
        manifest = parseManifest(Buffer.concat(pieces).toString('utf8'));
        await onManifest?.(manifest);
        continue;
      }
      const expected = manifest.entries.find((candidate) => candidate.path === entry.path);
      if (!expected || seen.has(entry.path)) {
        throw new BackupFormatError(`备份文件中有清单未列出的条目：${JSON.stringify(entry.path)}`);
      }
      seen.add(entry.path);
      if (entry.size !== expected.size) throw new BackupFormatError(`${entry.path} 的大小与清单不符`);
      await onEntry(entry, expected, manifest);
    }
  } catch (error) {
    source.destroy();
    if (error instanceof TarFormatError) throw new BackupFormatError(`备份文件损坏：${error.message}`);
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      throw new BackupFormatError('备份文件损坏：gzip 数据无效');
    }
    throw error;
  }
  if (manifest === null) throw new BackupFormatError('备份文件是空的');
  const missing = manifest.entries.find((entry) => !seen.has(entry.path));
  if (missing) throw new BackupFormatError(`备份文件缺少条目：${missing.path}`);
  return manifest;
}

/**
 * The content of an entry, hashed as it passes; throws when it does not match the manifest once
 * the entry has been read to the end.
 */
export async function* verified(entry: TarEntry, expected: ManifestEntry): AsyncGenerator<Buffer> {
  const hash = createHash('sha256');
  for await (const piece of entry.content) {
    hash.update(piece);
    yield piece;
  }
  if (hash.digest('hex') !== expected.sha256) {
    throw new BackupFormatError(`${entry.path} 的校验和与清单不符（文件已损坏）`);
  }
}

/** Reads the whole archive once and checks every entry's size and SHA-256 against the manifest. */
export async function verifyArchive(file: string): Promise<Manifest> {
  return readArchive(file, async (entry, expected) => {
    for await (const _ of verified(entry, expected)) {
      // hashing only
    }
  });
}
