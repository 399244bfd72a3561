import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, type UploadedFile } from '@youju/contract';
import type { Kysely } from 'kysely';
import {
  deleteUploads,
  findUploadChunk,
  findUploadsOfOwner,
  insertUpload,
  insertUploadChunk,
  listUploadIdsCreatedBefore,
} from '../../db/repositories/upload-repo.js';
import type { Database, UploadRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { HOUR } from '../../lib/time.js';
import type { AuthContext } from '../sessions/index.js';
import { CHUNK_BYTES, copyFileToChunks, streamChunks } from './chunks.js';
import { SNIFF_BYTES, sniffContentType } from './content-sniff.js';

/** Uploads nobody attached within this time are removed (attached ones live on in the sent copy). */
export const UPLOAD_LIFETIME_MS = 24 * HOUR;
const CLEANUP_EVERY_MS = HOUR;

export interface UploadOwner {
  kind: 'system' | 'mailbox';
  id: number;
}

export function uploadOwner(auth: AuthContext): UploadOwner {
  return auth.role === 'mailbox'
    ? { kind: 'mailbox', id: auth.mailboxId ?? -1 }
    : { kind: 'system', id: auth.accountId ?? -1 };
}

/** The file part of a multipart request, as @fastify/multipart hands it over. */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  file: Readable & { truncated?: boolean };
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

export function tooLargeMessage(limit: number): string {
  return `附件过大：单个文件不能超过 ${formatBytes(limit)}（整封邮件也不能超过这个大小），请压缩或拆分后再上传`;
}

/**
 * A file name as mail clients may show it: no directories (a browser on Windows may send
 * `C:\\…\\name`), no control characters, at most 200 characters.
 */
export function cleanFilename(name: string): string {
  const last = basename(name.replace(/\\/g, '/'));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const cleaned = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned.slice(0, 200) || '附件';
}

/** Counts, hashes and keeps the first bytes of a stream on its way to disk. */
class Inspector extends Transform {
  size = 0;
  head = Buffer.alloc(0);
  readonly hash = createHash('sha256');

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    if (this.head.length < SNIFF_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, SNIFF_BYTES - this.head.length)]);
    }
    done(null, chunk);
  }
}

function view(row: UploadRow): UploadedFile {
  return { id: row.id, filename: row.filename, size: row.size, contentType: row.content_type };
}

/**
 * Attachments uploaded before sending (uploadFile). The request body streams to a temporary
 * file under DATA_DIR/uploads, counted against the size limit as it arrives; a complete file is
 * then copied into the database in chunks, so any process sharing the database can attach it. The
 * temporary file is removed whatever happens: an oversized or broken upload leaves nothing behind.
 */
export function createUploadService(deps: { db: Kysely<Database>; dataDir: string }) {
  const { db } = deps;
  const spoolDir = join(deps.dataDir, 'uploads');
  let timer: NodeJS.Timeout | null = null;

  async function cleanup(now = Date.now()): Promise<number> {
    const ids = await listUploadIdsCreatedBefore(db, now - UPLOAD_LIFETIME_MS, 500);
    if (ids.length === 0) return 0;
    await db.transaction().execute((trx) => deleteUploads(trx, ids));
    return ids.length;
  }

  return {
    spoolDir,

    /** Removes partial files a crash left behind and starts the hourly clean-up. */
    async start(log: { warn(message: string): void }): Promise<void> {
      await mkdir(spoolDir, { recursive: true });
      for (const name of await readdir(spoolDir)) {
        if (name.endsWith('.part')) await rm(join(spoolDir, name), { force: true });
      }
      const run = () => {
        cleanup().catch((error: unknown) => log.warn(`upload clean-up failed: ${(error as Error).message}`));
      };
      run();
      timer = setInterval(run, CLEANUP_EVERY_MS);
      timer.unref();
    },

    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },

    cleanup,

    /** Stores one uploaded file; `maxBytes` is the limit the multipart parser was given. */
    async accept(owner: UploadOwner, incoming: IncomingFile, maxBytes: number): Promise<UploadedFile> {
      await mkdir(spoolDir, { recursive: true });
      const id = randomUUID();
      const path = join(spoolDir, `${id}.part`);
      const inspector = new Inspector();
      try {
        try {
          await pipeline(incoming.file, inspector, createWriteStream(path, { highWaterMark: CHUNK_BYTES }));
        } catch (error) {
          if ((error as { code?: string }).code === 'ENOSPC') {
            throw new ApiError(ErrorCode.internal, '服务器磁盘已满，暂时无法上传附件，请联系管理员');
          }
          throw ApiError.badRequest('上传没有完成（连接中断或内容不完整），请重新上传');
        }
        if (incoming.file.truncated || inspector.size > maxBytes) {
          throw new ApiError(ErrorCode.tooLarge, tooLargeMessage(maxBytes));
        }
        const filename = cleanFilename(incoming.filename);
        const row: UploadRow = {
          id,
          owner_kind: owner.kind,
          owner_id: owner.id,
          filename,
          content_type: sniffContentType(inspector.head, filename, incoming.mimetype),
          size: inspector.size,
          sha256: inspector.hash.digest('hex'),
          created_at: Date.now(),
        };
        await db.transaction().execute(async (trx) => {
          await insertUpload(trx, row);
          await copyFileToChunks(path, row.size, (seq, data) => insertUploadChunk(trx, id, seq, data));
        });
        return view(row);
      } finally {
        await rm(path, { force: true });
      }
    },

    /** The caller's uploads among `ids`, in the order given; any other id is "not found". */
    async owned(owner: UploadOwner, ids: string[]): Promise<UploadRow[]> {
      if (ids.length === 0) return [];
      const rows = await findUploadsOfOwner(db, { owner_kind: owner.kind, owner_id: owner.id }, ids);
      return ids.map((id) => {
        const row = rows.find((candidate) => candidate.id === id);
        if (!row) throw ApiError.notFound('附件不存在或已过期（上传超过 24 小时未发送会被清理），请重新上传');
        return row;
      });
    },

    /** The bytes of an upload, streamed from the database. */
    content(id: string): Readable {
      return streamChunks((seq) => findUploadChunk(db, id, seq));
    },
  };
}

export type UploadService = ReturnType<typeof createUploadService>;
