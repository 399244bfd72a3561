import type {
  BatchEditEmailAccountBody,
  CreateEmailAccountBody,
  EditEmailAccountBody,
  EmailAccount,
  EmailAccountFilter,
  ExportEmailAccountQuery,
  ImportEmailAccountBody,
  ImportEmailAccountData,
  ImportRowResult,
  PageQuery,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import { findDomainByName } from '../../db/repositories/domain-repo.js';
import {
  countAccounts,
  countAccountsInScope,
  findAccountInScope,
  listAccountsPage,
  listAllAccounts,
  updateAccounts,
  updateMailbox,
} from '../../db/repositories/mailbox-repo.js';
import type { Queryable } from '../../db/repositories/queryable.js';
import {
  revokeOpenSessionsOfMailboxes,
  revokeOpenSessionsOfSubject,
} from '../../db/repositories/session-repo.js';
import type { Database, DomainRow, MailboxRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { parseCsv, toCsv } from '../../lib/csv.js';
import { pageOf } from '../../lib/paging.js';
import { hashPassword } from '../../lib/passwords.js';
import { DAY, parseTimeInput } from '../../lib/time.js';
import type { DomainService } from '../domains/index.js';
import { refusePendingDomain } from '../domains/index.js';
import type { AuthContext } from '../sessions/index.js';
import { managedScope, mayManage } from '../sessions/index.js';
import type { SettingsService } from '../settings/index.js';
import { formatCsvTime, formatMegabytes, parseCsvTime, parseMegabytes } from './csv-values.js';
import { ensureMailboxLimit } from './mailbox-limits.js';
import { accountView, deleteMailboxes, insertAccount } from './mailbox-store.js';

const NOT_FOUND = '邮箱账号不存在';
const SOME_NOT_FOUND = '所选邮箱中有不存在或无权操作的账号，未做任何修改';
/** Rows one CSV import may carry: each needs a password hash (scrypt, ~50 ms of a worker thread). */
export const MAX_IMPORT_ROWS = 1000;
const LOCAL_PART = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?$/;
const CHINA_OFFSET_MINUTES = 480;

function timeOrNull(value: string | number | null | undefined, field: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const time = parseTimeInput(value);
  if (time === null) throw ApiError.badRequest(`参数 ${field} 不是有效的时间`);
  return time;
}

export function createEmailAccountService(deps: {
  db: Kysely<Database>;
  engine: Engine;
  domains: DomainService;
  settings: SettingsService;
}) {
  const { db, engine, domains, settings } = deps;

  /** One of the caller's mailbox accounts: a user's are those on its domains, an administrator's all. */
  async function owned(auth: AuthContext, id: number): Promise<MailboxRow> {
    const row = await findAccountInScope(db, managedScope(auth), id);
    if (!row) throw ApiError.notFound(NOT_FOUND);
    return row;
  }

  /** All of `ids` belong to the caller, or nothing happens (404). */
  async function ensureAllOwned(executor: Queryable, auth: AuthContext, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const count = await countAccountsInScope(executor, managedScope(auth), unique);
    if (count !== unique.length) throw ApiError.notFound(SOME_NOT_FOUND);
    return unique;
  }

  async function list(auth: AuthContext, query: PageQuery & EmailAccountFilter & { content?: string }) {
    return pageOf<EmailAccount>(query, async (limit, offset) => {
      const scope = managedScope(auth);
      const now = Date.now();
      const [rows, total] = await Promise.all([
        listAccountsPage(db, scope, query, now, { limit, offset }),
        countAccounts(db, scope, query, now),
      ]);
      return { rows: rows.map(accountView), total };
    });
  }

  /** Resolves the domain of an address for a CSV row: one the caller may manage, else a reason. */
  async function domainForImport(
    auth: AuthContext,
    name: string,
    cache: Map<string, DomainRow | null>,
  ): Promise<DomainRow | null> {
    if (!cache.has(name)) {
      const row = await findDomainByName(db, name);
      cache.set(name, row && mayManage(auth, row.owner_id) ? row : null);
    }
    return cache.get(name) ?? null;
  }

  return {
    list,

    async get(auth: AuthContext, id: number): Promise<EmailAccount> {
      return accountView(await owned(auth, id));
    },

    async create(auth: AuthContext, input: CreateEmailAccountBody): Promise<EmailAccount> {
      const domain = await domains.owned(auth, input.domainId);
      refusePendingDomain(domain);
      const current = await settings.get();
      const passwordHash = await hashPassword(input.password);
      const expiresAt = timeOrNull(input.expiresAt, 'expiresAt') ?? null;
      const row = await db.transaction().execute(async (trx) => {
        await ensureMailboxLimit(trx, engine, domain.owner_id);
        return insertAccount(trx, {
          localPart: input.localPart,
          domain,
          passwordHash,
          quotaBytes: input.quotaBytes ?? current.defaultQuotaBytes,
          expiresAt,
          source: 'manual',
          note: input.note ?? '',
        });
      });
      return accountView(row);
    },

    /** Changes what is given; a new password or disabling ends the mailbox's sessions. */
    async edit(auth: AuthContext, input: EditEmailAccountBody): Promise<EmailAccount> {
      const existing = await owned(auth, input.id);
      const changes: Partial<
        Pick<
          MailboxRow,
          'password_hash' | 'password_generated' | 'quota_bytes' | 'expires_at' | 'enabled' | 'note'
        >
      > = {};
      if (input.password !== undefined) {
        changes.password_hash = await hashPassword(input.password);
        changes.password_generated = 0;
      }
      if (input.quotaBytes !== undefined) changes.quota_bytes = input.quotaBytes;
      const expiresAt = timeOrNull(input.expiresAt, 'expiresAt');
      if (expiresAt !== undefined) changes.expires_at = expiresAt;
      if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0;
      if (input.note !== undefined) changes.note = input.note;
      if (Object.keys(changes).length === 0) return accountView(existing);
      const endSessions = input.password !== undefined || input.enabled === false;
      const row = await db.transaction().execute(async (trx) => {
        const updated = await updateMailbox(trx, existing.id, changes);
        if (endSessions) await revokeOpenSessionsOfSubject(trx, 'mailbox', existing.id, Date.now());
        return updated;
      });
      return accountView(row);
    },

    /** One transaction: every id is the caller's and every change lands, or nothing changes. */
    async batchEdit(auth: AuthContext, input: BatchEditEmailAccountBody): Promise<{ updated: number }> {
      const expiresAt = timeOrNull(input.expiresAt, 'expiresAt');
      if (expiresAt !== undefined && input.extendDays !== undefined) {
        throw ApiError.badRequest('“设置过期时间”和“延长天数”不能同时使用，请只选一种');
      }
      const noChange =
        input.enabled === undefined &&
        input.quotaBytes === undefined &&
        expiresAt === undefined &&
        input.extendDays === undefined;
      if (noChange) throw ApiError.badRequest('请至少选择一项要批量修改的内容');
      return db.transaction().execute(async (trx) => {
        const ids = await ensureAllOwned(trx, auth, input.ids);
        const now = Date.now();
        const updated = await updateAccounts(trx, ids, {
          enabled: input.enabled === undefined ? undefined : input.enabled ? 1 : 0,
          quota_bytes: input.quotaBytes,
          expires_at: expiresAt,
          // Never-expiring mailboxes stay so; an expired one gets the days from now, not from the past.
          extend: input.extendDays === undefined ? undefined : { by: input.extendDays * DAY, now },
        });
        if (input.enabled === false) await revokeOpenSessionsOfMailboxes(trx, ids, now);
        return { updated };
      });
    },

    /** Deletes the mailboxes and their mail, all or nothing. */
    async remove(auth: AuthContext, ids: number[]): Promise<{ deleted: number }> {
      return db.transaction().execute(async (trx) => {
        const unique = await ensureAllOwned(trx, auth, ids);
        return { deleted: await deleteMailboxes(trx, unique) };
      });
    },

    /**
     * Creates accounts from CSV text, row by row: each row stands alone and gets its own result
     * with a reason in Chinese. Columns (by header, Chinese or English, in any order; without a
     * header in this order): 邮箱地址, 密码, 容量(MB), 过期时间, 备注, 状态.
     */
    async importCsv(auth: AuthContext, input: ImportEmailAccountBody): Promise<ImportEmailAccountData> {
      let records: string[][];
      try {
        records = parseCsv(input.csv);
      } catch (error) {
        throw ApiError.badRequest(`CSV 文件格式不正确：${(error as Error).message}`);
      }
      const { columns, firstLine } = readHeader(records[0] ?? []);
      const dataRows = records.slice(firstLine - 1);
      if (dataRows.length === 0) throw ApiError.badRequest('CSV 文件中没有数据行');
      if (dataRows.length > MAX_IMPORT_ROWS) {
        throw ApiError.badRequest(
          `一次最多导入 ${MAX_IMPORT_ROWS} 行，当前 ${dataRows.length} 行，请拆分文件`,
        );
      }
      const offset = input.utcOffsetMinutes ?? CHINA_OFFSET_MINUTES;
      const current = await settings.get();
      const domainCache = new Map<string, DomainRow | null>();
      const seen = new Set<string>();
      const results: ImportRowResult[] = [];

      interface Prepared {
        result: ImportRowResult;
        localPart: string;
        domain: DomainRow;
        password: string;
        quotaBytes: number;
        expiresAt: number | null;
        note: string;
        enabled: boolean;
      }
      const prepared: Prepared[] = [];
      for (const [index, record] of dataRows.entries()) {
        const line = firstLine + index;
        const cell = (name: ColumnName) =>
          columns[name] === undefined ? '' : (record[columns[name]] ?? '').trim();
        const address = cell('address').toLowerCase();
        const result: ImportRowResult = { line, address, ok: false };
        results.push(result);
        const refuse = (reason: string) => {
          result.reason = reason;
        };
        const at = address.lastIndexOf('@');
        const localPart = at > 0 ? address.slice(0, at) : '';
        const domainName = at > 0 ? address.slice(at + 1) : '';
        if (!address) {
          refuse('缺少邮箱地址');
          continue;
        }
        if (!LOCAL_PART.test(localPart) || !domainName) {
          refuse('邮箱地址格式不正确');
          continue;
        }
        if (seen.has(address)) {
          refuse('与文件中前面的行重复');
          continue;
        }
        seen.add(address);
        const domain = await domainForImport(auth, domainName, domainCache);
        if (!domain) {
          refuse(`域名 ${domainName} 不存在或不属于你`);
          continue;
        }
        if (domain.status !== 'active') {
          refuse(`域名 ${domainName} 尚未通过所有权验证`);
          continue;
        }
        const password = cell('password');
        if (password.length < 6 || password.length > 128) {
          refuse('密码长度应为 6 到 128 位');
          continue;
        }
        const quotaText = cell('quota');
        const quotaBytes = quotaText ? parseMegabytes(quotaText) : current.defaultQuotaBytes;
        if (quotaBytes === null) {
          refuse(`容量“${quotaText}”不正确，应填写 MB 数，如 1024`);
          continue;
        }
        const expiresText = cell('expiresAt');
        const expiresAt = expiresText ? parseCsvTime(expiresText, offset) : null;
        if (expiresAt === undefined) {
          refuse(`过期时间“${expiresText}”不正确，应如 2026-12-31 或 2026-12-31 23:59，留空表示永不过期`);
          continue;
        }
        const statusText = cell('enabled');
        const enabled = parseEnabled(statusText);
        if (enabled === null) {
          refuse(`状态“${statusText}”不正确，应填写 启用 或 停用`);
          continue;
        }
        const note = cell('note').slice(0, 200);
        prepared.push({ result, localPart, domain, password, quotaBytes, expiresAt, note, enabled });
      }

      // Hash passwords a few at a time (scrypt runs on the libuv pool), then insert row by row.
      const hashes: string[] = [];
      for (let start = 0; start < prepared.length; start += 8) {
        const slice = prepared.slice(start, start + 8);
        hashes.push(...(await Promise.all(slice.map((row) => hashPassword(row.password)))));
      }
      for (const [index, row] of prepared.entries()) {
        try {
          const created = await db.transaction().execute(async (trx) => {
            await ensureMailboxLimit(trx, engine, row.domain.owner_id);
            return insertAccount(trx, {
              localPart: row.localPart,
              domain: row.domain,
              passwordHash: hashes[index] ?? '',
              quotaBytes: row.quotaBytes,
              expiresAt: row.expiresAt,
              source: 'import',
              note: row.note,
              enabled: row.enabled,
            });
          });
          row.result.ok = true;
          row.result.id = created.id;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          row.result.reason = error.message;
        }
      }
      const created = results.filter((row) => row.ok).length;
      return { created, failed: results.length - created, rows: results };
    },

    /** The accounts matching the filters as CSV (UTF-8 with BOM, so Excel shows Chinese). */
    async exportCsv(auth: AuthContext, query: ExportEmailAccountQuery): Promise<string> {
      const offset = query.utcOffsetMinutes ?? CHINA_OFFSET_MINUTES;
      const rows = await listAllAccounts(db, managedScope(auth), query, Date.now());
      return toCsv([
        EXPORT_HEADER,
        ...rows.map((row) => [
          row.address,
          formatMegabytes(row.quota_bytes),
          formatMegabytes(row.used_bytes),
          row.expires_at === null ? '' : formatCsvTime(row.expires_at, offset),
          row.enabled === 1 ? '启用' : '停用',
          row.note,
        ]),
      ]);
    },
  };
}

export type EmailAccountService = ReturnType<typeof createEmailAccountService>;

type ColumnName = 'address' | 'password' | 'quota' | 'used' | 'expiresAt' | 'enabled' | 'note';

/** The export's columns; an exported file can be imported again once a 密码 column is added. */
const EXPORT_HEADER = ['邮箱地址', '容量(MB)', '已用(MB)', '过期时间', '状态', '备注'];

const HEADER_NAMES: Record<string, ColumnName> = {
  邮箱地址: 'address',
  邮箱: 'address',
  地址: 'address',
  address: 'address',
  email: 'address',
  密码: 'password',
  password: 'password',
  '容量(mb)': 'quota',
  '容量（mb）': 'quota',
  容量: 'quota',
  quota: 'quota',
  quotamb: 'quota',
  '已用(mb)': 'used',
  '已用（mb）': 'used',
  已用: 'used',
  used: 'used',
  过期时间: 'expiresAt',
  到期时间: 'expiresAt',
  expiresat: 'expiresAt',
  expires: 'expiresAt',
  状态: 'enabled',
  enabled: 'enabled',
  status: 'enabled',
  备注: 'note',
  note: 'note',
};

const DEFAULT_ORDER: ColumnName[] = ['address', 'password', 'quota', 'expiresAt', 'note', 'enabled'];

/** Reads the header row if the first record is one; otherwise the default column order. */
function readHeader(first: string[]): { columns: Partial<Record<ColumnName, number>>; firstLine: number } {
  const columns: Partial<Record<ColumnName, number>> = {};
  for (const [index, title] of first.entries()) {
    const name = HEADER_NAMES[title.trim().toLowerCase().replace(/\s+/g, '')];
    if (name && columns[name] === undefined) columns[name] = index;
  }
  if (columns.address !== undefined) return { columns, firstLine: 2 };
  const positional: Partial<Record<ColumnName, number>> = {};
  for (const [index, name] of DEFAULT_ORDER.entries()) positional[name] = index;
  return { columns: positional, firstLine: 1 };
}

function parseEnabled(text: string): boolean | null {
  const value = text.trim().toLowerCase();
  if (['', '启用', '正常', '是', '1', 'true', 'yes', 'enabled'].includes(value)) return true;
  if (['停用', '禁用', '否', '0', 'false', 'no', 'disabled'].includes(value)) return false;
  return null;
}
