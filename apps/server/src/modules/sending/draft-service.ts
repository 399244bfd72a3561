import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type DraftDetail,
  type DraftItem,
  ErrorCode,
  type PageOf,
  type PageQuery,
  type SaveDraftBody,
  type SaveDraftData,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import MailComposer from 'nodemailer/lib/mail-composer';
import { findMailboxById, findMailboxIdByAddressInScope } from '../../db/repositories/mailbox-repo.js';
import {
  findScopedMessage,
  listScopedFolderPage,
  type MailboxScope,
} from '../../db/repositories/message-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { createDatabaseRateLimits } from '../../lib/database-rate-limits.js';
import { pageOf } from '../../lib/paging.js';
import { toIso } from '../../lib/time.js';
import { readHeaderBlock } from '../../protocols/mime/header-block.js';
import {
  extractAttachment,
  FolderError,
  type FolderService,
  readRaw,
  type StoredAttachment,
  sanitizeMailHtml,
} from '../mail/index.js';
import type { AuthContext } from '../sessions/index.js';
import type { SettingsService } from '../settings/index.js';
import { type UploadService, uploadOwner } from './upload-service.js';

/** Drafts one mailbox may keep; a draft is saved again in place, so only new drafts count. */
export const MAX_DRAFTS_PER_MAILBOX = 100;
/** Saves per mailbox and minute: the web saves 2 s after typing stops, a person stays far below. */
export const DRAFT_SAVES_PER_MINUTE = 30;
/** IMAP's \Draft flag (RFC 3501 section 2.3.2) as a bit of `messages.flags` (migration 050). */
const DRAFT_FLAG = 4;
const MINUTE = 60_000;

const NOT_FOUND = '草稿不存在或已被删除（发送后草稿会自动删除）';

/** An attachment as compose takes it, from an upload or from a draft saved earlier. */
export interface AttachmentSource {
  filename: string;
  contentType: string;
  size: number;
  open(): Readable;
}

function formatBytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function addressesOf(value: unknown): string[] {
  const groups = Array.isArray(value) ? value : value ? [value] : [];
  const out: string[] = [];
  const visit = (entries: { address?: string; group?: unknown[] }[]) => {
    for (const entry of entries) {
      if (entry.address) out.push(entry.address.toLowerCase());
      if (Array.isArray(entry.group)) visit(entry.group as { address?: string }[]);
    }
  };
  for (const group of groups as { value?: { address?: string }[] }[]) visit(group.value ?? []);
  return out;
}

/**
 * Drafts are messages in the Drafts folder (`\Drafts`, RFC 6154) of the sending address's
 * mailbox, so IMAP clients see them and a draft a client APPENDs there shows in the web's list.
 * Who reaches them: a mailbox session its own mailbox, a system user (administrators too) the
 * mailboxes its account owns — drafts are private writing, not something an administrator
 * browses. Anything else answers like a missing id (404).
 */
export function createDraftService(deps: {
  db: Kysely<Database>;
  settings: SettingsService;
  uploads: UploadService;
  folders: FolderService;
}) {
  const { db, settings, uploads, folders } = deps;
  const saves = createDatabaseRateLimits(db)('draft-saves', MINUTE);

  function scopeOf(auth: AuthContext): MailboxScope {
    if (auth.role === 'mailbox') return { kind: 'mailbox', mailboxId: auth.mailboxId ?? -1 };
    return { kind: 'owner', ownerId: auth.accountId ?? -1 };
  }

  async function loadDraft(auth: AuthContext, id: number) {
    const row = await findScopedMessage(db, scopeOf(auth), id);
    if (row?.folder !== 'drafts') throw ApiError.notFound(NOT_FOUND);
    return row;
  }

  /** The mailbox whose Drafts folder keeps a draft sent from `from`. */
  async function mailboxFor(auth: AuthContext, from: string): Promise<number> {
    const address = from.trim().toLowerCase();
    if (auth.role === 'mailbox') {
      const mailbox = await findMailboxById(db, auth.mailboxId ?? -1);
      if (!mailbox || mailbox.address.toLowerCase() !== address) {
        throw ApiError.forbidden(`不能以 ${address} 的名义保存草稿：邮箱用户只能用自己的地址`);
      }
      return mailbox.id;
    }
    const id = await findMailboxIdByAddressInScope(
      db,
      { kind: 'owner', ownerId: auth.accountId ?? -1 },
      address,
    );
    if (id === undefined) {
      throw ApiError.badRequest(
        `发件地址 ${address} 不是你名下的邮箱，草稿无法保存：草稿保存在发件邮箱的“草稿箱”里，请选择已有邮箱的地址`,
      );
    }
    return id;
  }

  /**
   * Attachment ids as compose and sendEmail take them: upload ids of the caller, or
   * `<draftId>-<index>` for an attachment of one of the caller's drafts (streamed from its raw
   * message when composing, so a restored draft is sent without uploading its files again).
   */
  async function attachments(auth: AuthContext, ids: string[]): Promise<AttachmentSource[]> {
    const unique = [...new Set(ids)];
    const uploadIds = unique.filter((id) => !/^\d+-\d+$/.test(id));
    const uploaded = await uploads.owned(uploadOwner(auth), uploadIds);
    const drafts = new Map<number, Awaited<ReturnType<typeof loadDraft>>>();
    const sources: AttachmentSource[] = [];
    for (const id of unique) {
      const match = /^(\d+)-(\d+)$/.exec(id);
      if (!match) {
        const row = uploaded.find((candidate) => candidate.id === id);
        if (!row) continue;
        sources.push({
          filename: row.filename,
          contentType: row.content_type,
          size: row.size,
          open: () => uploads.content(row.id),
        });
        continue;
      }
      const draftId = Number(match[1]);
      const index = Number(match[2]);
      if (!Number.isSafeInteger(draftId) || draftId < 1)
        throw ApiError.notFound('附件不存在或所在草稿已删除');
      const draft =
        drafts.get(draftId) ??
        (await loadDraft(auth, draftId).catch(() => {
          throw ApiError.notFound('附件不存在或所在草稿已删除，请重新添加附件');
        }));
      drafts.set(draftId, draft);
      const meta = parseJson<StoredAttachment[]>(draft.attachments_json, []).find((a) => a.index === index);
      if (!meta) throw ApiError.notFound('附件不存在或所在草稿已删除，请重新添加附件');
      sources.push({
        filename: meta.filename || '附件',
        contentType: meta.contentType || 'application/octet-stream',
        size: meta.size,
        open: () => {
          const out = new PassThrough();
          extractAttachment(readRaw(db, draft.raw_id), index, (content) => pipeline(content, out)).then(
            (found) => {
              if (!found) out.destroy(new Error('draft attachment vanished'));
            },
            (error: unknown) => out.destroy(error as Error),
          );
          return out;
        },
      });
    }
    return sources;
  }

  /**
   * The draft as a MIME message (RFC 5322; Bcc kept in the header, as drafts of mail clients do,
   * since the draft is never transmitted; RFC 5322 section 3.6.3 leaves that to the client).
   */
  async function composeDraft(
    body: SaveDraftBody,
    files: AttachmentSource[],
    maxBytes: number,
  ): Promise<Buffer> {
    const composer = new MailComposer({
      from: body.from,
      to: body.to?.length ? body.to : undefined,
      cc: body.cc?.length ? body.cc : undefined,
      bcc: body.bcc?.length ? body.bcc : undefined,
      subject: body.subject ?? '',
      date: new Date(),
      inReplyTo: body.inReplyTo?.trim() || undefined,
      text: body.text ?? undefined,
      html: body.html?.trim() ? body.html : undefined,
      attachments: files.map((file) => ({
        filename: file.filename,
        contentType: file.contentType,
        content: file.open(),
      })),
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    const compiled = composer.compile();
    compiled.keepBcc = true;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of compiled.createReadStream() as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Stop reading what cannot be stored rather than holding it all (the estimate can miss).
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  function tooLarge(maxBytes: number): ApiError {
    return new ApiError(
      ErrorCode.tooLarge,
      `草稿过大：编码后不能超过 ${formatBytes(maxBytes)}（附件经 Base64 编码后约增大三分之一），请删除部分附件`,
    );
  }

  async function remove(auth: AuthContext, id: number): Promise<void> {
    const row = await loadDraft(auth, id);
    await folders.expunge(row.mailbox_id, [row.id]);
  }

  return {
    attachments,

    /** saveDraft: creates a draft or replaces `body.id` in one transaction. */
    async save(auth: AuthContext, body: SaveDraftBody): Promise<SaveDraftData> {
      const mailboxId = await mailboxFor(auth, body.from);
      if ((await saves.hit(`mailbox:${mailboxId}`)) > DRAFT_SAVES_PER_MINUTE) {
        throw ApiError.tooMany(
          `草稿保存过于频繁：每分钟最多保存 ${DRAFT_SAVES_PER_MINUTE} 次，请稍后再试`,
          60,
        );
      }
      const previous = body.id === undefined ? undefined : await loadDraft(auth, body.id);
      const files = await attachments(auth, body.attachments ?? []);
      const { maxMessageBytes } = await settings.get();
      // Base64 grows attachments by a third (RFC 2045 section 6.8): refuse early what cannot fit.
      const estimate =
        files.reduce((sum, file) => sum + Math.ceil(file.size / 3) * 4, 0) +
        Buffer.byteLength(body.html ?? '') +
        Buffer.byteLength(body.text ?? '');
      if (estimate > maxMessageBytes) throw tooLarge(maxMessageBytes);
      const message = await composeDraft(body, files, maxMessageBytes);
      const savedAt = Date.now();
      let stored: { id: number };
      try {
        stored = await folders.append(mailboxId, 'drafts', message, {
          read: true,
          starred: false,
          flags: DRAFT_FLAG,
          keywords: '',
          receivedAt: savedAt,
          ...(previous?.mailbox_id === mailboxId ? { replaces: previous.id } : {}),
          maxMessages: MAX_DRAFTS_PER_MAILBOX,
        });
      } catch (error) {
        if (!(error instanceof FolderError)) throw error;
        if (error.reason === 'too-big') throw tooLarge(maxMessageBytes);
        if (error.reason === 'too-many') {
          throw ApiError.conflict(
            `草稿太多：每个邮箱最多保存 ${MAX_DRAFTS_PER_MAILBOX} 封草稿，请先删除不需要的草稿`,
          );
        }
        if (error.reason === 'quota') {
          throw new ApiError(
            ErrorCode.tooLarge,
            '邮箱空间已满，草稿无法保存：请删除一些邮件或联系管理员扩容',
          );
        }
        throw ApiError.notFound('邮箱不存在或已被删除');
      }
      // The sender was changed to another mailbox: the draft moves there.
      if (previous && previous.mailbox_id !== mailboxId)
        await folders.expunge(previous.mailbox_id, [previous.id]);
      return { id: stored.id, savedAt: toIso(savedAt) as string };
    },

    /** draftList: the caller's drafts, newest first. */
    async list(auth: AuthContext, query: PageQuery): Promise<PageOf<DraftItem>> {
      return pageOf(query, async (limit, offset) => {
        const { rows, total } = await listScopedFolderPage(db, scopeOf(auth), 'drafts', { limit, offset });
        return {
          rows: rows.map((row) => ({
            id: row.id,
            address: row.address,
            to: parseJson<{ address: string }[]>(row.to_json, []).map((person) => person.address),
            subject: row.subject,
            snippet: row.snippet,
            savedAt: toIso(row.received_at) as string,
            hasAttachments: row.has_attachments === 1,
            size: row.size,
          })),
          total,
        };
      });
    },

    /**
     * getDraft: what compose needs. Bcc, From and In-Reply-To come from the stored header; the
     * HTML is sanitised as getEmail's is, since a mail client may have APPENDed anything.
     */
    async get(auth: AuthContext, id: number): Promise<DraftDetail> {
      const row = await loadDraft(auth, id);
      const header = await readHeaderBlock(readRaw(db, row.raw_id));
      // mailparser is loaded here, not at startup: the store worker loads this module and never
      // needs it (see mail-parser.ts)
      const { simpleParser } = await import('mailparser');
      const parsed = await simpleParser(Buffer.concat([header, Buffer.from('\r\n\r\n')]), {
        skipHtmlToText: true,
        skipTextToHtml: true,
        skipTextLinks: true,
      });
      const stored = parseJson<StoredAttachment[]>(row.attachments_json, []);
      const inReplyTo = typeof parsed.inReplyTo === 'string' ? parsed.inReplyTo.trim() : '';
      return {
        id: row.id,
        address: row.address,
        from: addressesOf(parsed.from)[0] ?? row.address,
        to: parseJson<{ address: string }[]>(row.to_json, []).map((person) => person.address),
        cc: parseJson<{ address: string }[]>(row.cc_json, []).map((person) => person.address),
        bcc: addressesOf(parsed.bcc),
        subject: row.subject,
        html: row.html_body === null ? null : sanitizeMailHtml(row.html_body, () => null),
        text: row.text_body,
        attachments: stored
          .filter((attachment) => !attachment.inline)
          .map((attachment) => ({
            id: `${row.id}-${attachment.index}`,
            filename: attachment.filename,
            contentType: attachment.contentType,
            size: attachment.size,
          })),
        inReplyTo: inReplyTo || null,
        savedAt: toIso(row.received_at) as string,
      };
    },

    /** deleteDraft. */
    remove,

    /** After sendEmail queued a draft's message: the draft goes (already gone is fine). */
    async sent(auth: AuthContext, id: number): Promise<void> {
      await remove(auth, id).catch((error: unknown) => {
        if (!(error instanceof ApiError)) throw error;
      });
    },
  };
}

export type DraftService = ReturnType<typeof createDraftService>;
