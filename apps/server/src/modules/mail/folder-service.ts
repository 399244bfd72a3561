import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import { findFolder, findFoldersByIds, listFolders } from '../../db/repositories/folder-repo.js';
import {
  addMailboxUsageWithinQuota,
  findMailboxById,
  releaseMailboxUsage,
} from '../../db/repositories/mailbox-repo.js';
import {
  changeMessageFlags,
  countFolderMessages,
  deleteMessagesByIds,
  type FolderMessageRow,
  findMailboxMessages,
  findMessageSearchFields,
  findMessagesToDelete,
  insertMessages,
  listFolderMessages,
  type MessageFlagChanges,
  moveMessages,
} from '../../db/repositories/message-repo.js';
import { deleteOrphanRawMessages, findRawChunk } from '../../db/repositories/raw-message-repo.js';
import type { Database, FolderName, MailFolderRow } from '../../db/schema.js';
import type { SettingsService } from '../settings/index.js';
import { messageRowOf } from './inbound-service.js';
import type { MailEvents } from './mail-events.js';
import { parseMail } from './mail-parser.js';
import { insertRaw, RAW_CHUNK_BYTES, readRaw } from './raw-store.js';

export type { FolderMessageRow, FolderName, MailFolderRow, MessageFlagChanges };

/** Why a folder operation was refused, for the protocol adapter to word (IMAP NO codes). */
export class FolderError extends Error {
  constructor(
    readonly reason: 'quota' | 'too-big' | 'gone' | 'too-many',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A mailbox's folders as mail clients see them (IMAP, POP3): listing, the messages of a folder with
 * their UIDs, flags, copy, move, expunge and append. Every call takes the mailbox of the logged-in
 * account and touches only its rows: the queries carry `mailbox_id`, whatever ids the caller sends.
 * Flags are the web's (`read`, `starred`), so both sides see one state; each change raises the
 * folder's modseq (db/repositories/folder-repo.ts), which the sessions poll.
 */
export function createFolderService(deps: {
  db: Kysely<Database>;
  engine: Engine;
  settings: SettingsService;
  events: MailEvents;
  /** how often watched folders are read (IDLE), 500 ms by default */
  pollMs?: number;
}) {
  const { db, settings, events } = deps;
  const pollMs = deps.pollMs ?? 500;

  /**
   * Folders IDLE sessions wait on, polled together: one statement every `pollMs` for all of this
   * process's idle sessions, however many there are; a listener hears when its folder's modseq or
   * UIDNEXT moved, or the folder is gone. Changes made by other processes (PostgreSQL) arrive so.
   */
  const watched = new Map<number, { state: string; listeners: Set<() => void> }>();
  let pollTimer: NodeJS.Timeout | null = null;
  const stateOf = (row: { highest_modseq: number; uidnext: number }) =>
    `${row.highest_modseq}:${row.uidnext}`;

  async function pollWatched(): Promise<void> {
    const ids = [...watched.keys()];
    const rows = new Map<number, MailFolderRow>();
    for (let start = 0; start < ids.length; start += 500) {
      for (const row of await findFoldersByIds(db, ids.slice(start, start + 500))) rows.set(row.id, row);
    }
    for (const id of ids) {
      const entry = watched.get(id);
      if (!entry) continue;
      const row = rows.get(id);
      const state = row ? stateOf(row) : 'gone';
      if (state === entry.state) continue;
      entry.state = state;
      for (const listener of entry.listeners) listener();
    }
  }

  let polling = false;
  let pollAgain = false;
  let stopListening: (() => void) | null = null;

  /** Reads the watched rows now (once at a time), then every `pollMs` while any is watched. */
  function pollNow(): void {
    if (polling) {
      pollAgain = true;
      return;
    }
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = null;
    polling = true;
    void pollWatched()
      .catch(() => {})
      .finally(() => {
        polling = false;
        if (pollAgain) {
          pollAgain = false;
          pollNow();
        } else {
          schedulePoll();
        }
      });
  }

  function schedulePoll(): void {
    if (watched.size === 0) {
      stopListening?.();
      stopListening = null;
      return;
    }
    // New mail stored in this process is seen at once, with one read for all watchers.
    stopListening ??= events.subscribe(() => pollNow());
    if (pollTimer || polling) return;
    pollTimer = setTimeout(pollNow, pollMs);
    pollTimer.unref();
  }

  /** Messages among `ids` that belong to `mailboxId` (ids from a session's view, checked again). */
  async function own(mailboxId: number, ids: number[]) {
    return findMailboxMessages(db, mailboxId, ids);
  }

  return {
    async maxMessageBytes(): Promise<number> {
      return (await settings.get()).maxMessageBytes;
    },

    /**
     * Whether a mail client's login still stands: the mailbox exists, is enabled and unexpired,
     * and its password is the one the client logged in with (a change or a disable ends the web's
     * sessions; open IMAP and POP3 connections end at their next check).
     */
    async loginStillValid(mailboxId: number, passwordHash: string | null): Promise<boolean> {
      const mailbox = await findMailboxById(db, mailboxId);
      if (mailbox?.enabled !== 1) return false;
      if (mailbox.expires_at !== null && mailbox.expires_at <= Date.now()) return false;
      return mailbox.password_hash === passwordHash;
    },

    /** The five folders with their counts, in display order. */
    async list(mailboxId: number) {
      const [folders, counts] = await Promise.all([
        listFolders(db, mailboxId),
        countFolderMessages(db, mailboxId),
      ]);
      return folders.map((folder) => {
        const count = counts.find((c) => c.folder === folder.name);
        return {
          ...folder,
          messages: count?.messages ?? 0,
          unseen: count?.unseen ?? 0,
          size: count?.size ?? 0,
          deleted: count?.deleted ?? 0,
        };
      });
    },

    /** The folder row alone (one indexed read): what IDLE polls. Undefined: the mailbox is gone. */
    state(mailboxId: number, folder: FolderName): Promise<MailFolderRow | undefined> {
      return findFolder(db, mailboxId, folder);
    },

    messages(mailboxId: number, folder: FolderName): Promise<FolderMessageRow[]> {
      return listFolderMessages(db, mailboxId, folder);
    },

    searchFields(mailboxId: number, ids: number[]) {
      return findMessageSearchFields(db, mailboxId, ids);
    },

    /** The raw message streamed from its chunks, byte for byte as stored. */
    raw(rawId: number): Readable {
      return readRaw(db, rawId);
    },

    /** The first bytes of a raw message, at least `bytes` of them when it has that many. */
    async rawHead(rawId: number, bytes: number): Promise<Buffer> {
      const chunks: Buffer[] = [];
      for (let seq = 0; seq * RAW_CHUNK_BYTES < bytes; seq++) {
        const chunk = await findRawChunk(db, rawId, seq);
        if (!chunk) break;
        chunks.push(Buffer.from(chunk));
      }
      return Buffer.concat(chunks);
    },

    async setFlags(mailboxId: number, ids: number[], changes: MessageFlagChanges): Promise<void> {
      const mine = (await own(mailboxId, ids)).map((row) => row.id);
      await changeMessageFlags(db, mine, changes);
    },

    /** Deletes messages for good (EXPUNGE, POP3 DELE at QUIT): quota back, raw bytes once unshared. */
    async expunge(mailboxId: number, ids: number[]): Promise<number> {
      if (ids.length === 0) return 0;
      return db.transaction().execute(async (trx) => {
        const rows = (await findMessagesToDelete(trx, ids)).filter((row) => row.mailbox_id === mailboxId);
        if (rows.length === 0) return 0;
        await deleteMessagesByIds(
          trx,
          rows.map((row) => row.id),
        );
        await releaseMailboxUsage(
          trx,
          mailboxId,
          rows.reduce((sum, row) => sum + row.size, 0),
        );
        await deleteOrphanRawMessages(trx, [...new Set(rows.map((row) => row.raw_id))]);
        return rows.length;
      });
    },

    /** COPY (RFC 3501 section 6.4.7): new rows sharing the raw bytes, counted against the quota. */
    async copy(mailboxId: number, ids: number[], to: FolderName) {
      return db.transaction().execute(async (trx) => {
        const rows = await findMailboxMessages(trx, mailboxId, ids);
        if (rows.length === 0) return [];
        const bytes = rows.reduce((sum, row) => sum + row.size, 0);
        if (!(await addMailboxUsageWithinQuota(trx, mailboxId, bytes))) {
          throw new FolderError('quota', 'mailbox quota exceeded');
        }
        const newIds = await insertMessages(
          trx,
          rows.map(({ id: _id, uid: _uid, modseq: _modseq, ...row }) => ({
            ...row,
            folder: to,
            spam: to === 'junk' ? 1 : 0,
          })),
        );
        const copies = await findMailboxMessages(trx, mailboxId, newIds);
        const uidOf = new Map(copies.map((row) => [row.id, row.uid]));
        return rows.map((row, index) => ({
          fromUid: row.uid,
          toUid: uidOf.get(newIds[index] as number) ?? 0,
        }));
      });
    },

    /** MOVE (RFC 6851): the same rows, new UIDs in the target folder. */
    async move(mailboxId: number, ids: number[], to: FolderName) {
      const mine = (await own(mailboxId, ids)).map((row) => row.id);
      return moveMessages(db, mine, to);
    },

    /**
     * APPEND (RFC 3501 section 6.3.11): the message stored raw and parsed as delivered mail is,
     * counted against the quota; INBOX appends reach the web's live inbox.
     */
    async append(
      mailboxId: number,
      folder: FolderName,
      message: Buffer,
      options: {
        read: boolean;
        starred: boolean;
        flags: number;
        keywords: string;
        receivedAt: number;
        /** a message of this mailbox and folder that the new one replaces (a draft saved again) */
        replaces?: number;
        /** the most messages the folder may hold afterwards (the drafts cap) */
        maxMessages?: number;
      },
    ): Promise<{ id: number; uid: number; uidvalidity: number }> {
      const limit = (await settings.get()).maxMessageBytes;
      if (message.length > limit) throw new FolderError('too-big', 'message too big');
      const parsed = await parseMail(message);
      const sha256 = createHash('sha256').update(message).digest('hex');
      const id = await db.transaction().execute(async (trx) => {
        // The replaced message goes in the same transaction: a reader sees the old or the new one.
        const replaced =
          options.replaces === undefined
            ? []
            : (await findMessagesToDelete(trx, [options.replaces])).filter(
                (row) => row.mailbox_id === mailboxId && row.folder === folder,
              );
        if (replaced.length > 0) {
          await deleteMessagesByIds(
            trx,
            replaced.map((row) => row.id),
          );
          await releaseMailboxUsage(
            trx,
            mailboxId,
            replaced.reduce((sum, row) => sum + row.size, 0),
          );
          await deleteOrphanRawMessages(trx, [...new Set(replaced.map((row) => row.raw_id))]);
        }
        if (!(await addMailboxUsageWithinQuota(trx, mailboxId, message.length))) {
          throw new FolderError('quota', 'mailbox quota exceeded');
        }
        const rawId = await insertRaw(trx, message, message.length, sha256);
        const [inserted] = await insertMessages(trx, [
          messageRowOf(parsed, {
            mailboxId,
            rawId,
            folder,
            envelopeFrom: parsed.from?.address ?? '',
            receivedAt: options.receivedAt,
            size: message.length,
            read: options.read ? 1 : 0,
            starred: options.starred ? 1 : 0,
            flags: options.flags,
            keywords: options.keywords,
          }),
        ]);
        if (options.maxMessages !== undefined) {
          // Counted after the insert: the insert took the folder row's lock (UID allocation), so on
          // PostgreSQL a parallel append waits for this commit and then counts this message too.
          const counts = await countFolderMessages(trx, mailboxId);
          const held = counts.find((count) => count.folder === folder)?.messages ?? 0;
          if (held > options.maxMessages) throw new FolderError('too-many', 'folder full');
        }
        if (folder === 'inbox' || folder === 'junk')
          await events.announceInTransaction(trx, [inserted as number]);
        return inserted as number;
      });
      if (folder === 'inbox' || folder === 'junk') events.announceCommitted([id]);
      const [row] = await findMailboxMessages(db, mailboxId, [id]);
      const state = await findFolder(db, mailboxId, folder);
      if (!row || !state) throw new FolderError('gone', 'mailbox gone');
      return { id, uid: row.uid, uidvalidity: state.uidvalidity };
    },

    /**
     * Calls `listener` when the folder row `folder` (as the caller last saw it) changes: polled
     * with every other watched folder of this process, and at once on new mail stored here.
     */
    watch(
      folder: Pick<MailFolderRow, 'id' | 'highest_modseq' | 'uidnext'>,
      listener: () => void,
    ): () => void {
      const entry = watched.get(folder.id) ?? { state: stateOf(folder), listeners: new Set<() => void>() };
      watched.set(folder.id, entry);
      entry.listeners.add(listener);
      schedulePoll();
      return () => {
        entry.listeners.delete(listener);
        if (entry.listeners.size === 0 && watched.get(folder.id) === entry) watched.delete(folder.id);
      };
    },
  };
}

export type FolderService = ReturnType<typeof createFolderService>;
