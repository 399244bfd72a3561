import type {
  CreateSysAccountBody,
  EditSysAccountBody,
  PageOf,
  PageQuery,
  SysAccount,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import { countDomainsOfOwner } from '../../db/repositories/domain-repo.js';
import { deleteMailboxesOfOwner } from '../../db/repositories/mailbox-repo.js';
import { revokeAllSessionsOfSystemAccount } from '../../db/repositories/session-repo.js';
import {
  anyAdministratorExists,
  countEnabledAdministratorsExcept,
  countSystemAccounts,
  deleteSystemAccount,
  findSystemAccountById,
  findSystemAccountByUsername,
  getSystemAccountById,
  insertSystemAccount,
  listSystemAccounts,
  updateSystemAccount,
} from '../../db/repositories/system-account-repo.js';
import type { Database, SystemAccountRow, SystemAccountUpdate } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { pageOf } from '../../lib/paging.js';
import { hashPassword } from '../../lib/passwords.js';
import { toIso } from '../../lib/time.js';
import type { AuthContext, SessionService } from '../sessions/index.js';

export function sysAccountView(row: SystemAccountRow): SysAccount {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    enabled: row.enabled === 1,
    maxDomains: row.max_domains,
    maxMailboxes: row.max_mailboxes,
    createdAt: toIso(row.created_at),
    lastLoginAt: toIso(row.last_login_at),
  };
}

export function createSystemAccountService(db: Kysely<Database>, sessions: SessionService) {
  async function find(id: number): Promise<SystemAccountRow> {
    const row = await findSystemAccountById(db, id);
    if (!row) throw ApiError.notFound('账号不存在');
    return row;
  }

  return {
    async list(query: PageQuery): Promise<PageOf<SysAccount>> {
      return pageOf(query, async (limit, offset) => {
        const [rows, total] = await Promise.all([
          listSystemAccounts(db, limit, offset),
          countSystemAccounts(db),
        ]);
        return { rows: rows.map(sysAccountView), total };
      });
    },

    async create(input: CreateSysAccountBody): Promise<SysAccount> {
      const username = input.username.trim();
      const passwordHash = await hashPassword(input.password);
      return db.transaction().execute(async (trx) => {
        if (await findSystemAccountByUsername(trx, username)) {
          throw ApiError.conflict(`用户名 ${username} 已存在，请换一个`);
        }
        const row = await insertSystemAccount(trx, {
          username,
          password_hash: passwordHash,
          role: input.role,
          enabled: 1,
          max_domains: input.maxDomains ?? 0,
          max_mailboxes: input.maxMailboxes ?? 0,
          created_at: Date.now(),
        });
        return sysAccountView(row);
      });
    },

    async edit(input: EditSysAccountBody): Promise<SysAccount> {
      const changes: SystemAccountUpdate = {};
      if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
      if (input.role !== undefined) changes.role = input.role;
      if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0;
      if (input.maxDomains !== undefined) changes.max_domains = input.maxDomains;
      if (input.maxMailboxes !== undefined) changes.max_mailboxes = input.maxMailboxes;
      const row = await db.transaction().execute(async (trx) => {
        const current = await findSystemAccountById(trx, input.id);
        if (!current) throw ApiError.notFound('账号不存在');
        const losesAdmin =
          current.role === 'admin' &&
          current.enabled === 1 &&
          (changes.role === 'user' || changes.enabled === 0);
        if (losesAdmin && (await countEnabledAdministratorsExcept(trx, current.id)) === 0) {
          throw ApiError.conflict('这是最后一个启用的管理员，不能降级或停用；请先设置另一个管理员');
        }
        if (Object.keys(changes).length > 0) await updateSystemAccount(trx, input.id, changes);
        return getSystemAccountById(trx, input.id);
      });
      // A new password or a disabled account ends every session at once.
      if (changes.password_hash !== undefined || changes.enabled === 0)
        await sessions.revokeAll('system', row.id);
      return sysAccountView(row);
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const current = await findSystemAccountById(trx, id);
        if (!current) throw ApiError.notFound('账号不存在');
        if (current.id === auth.accountId) throw ApiError.conflict('不能删除当前登录的账号');
        if (
          current.role === 'admin' &&
          current.enabled === 1 &&
          (await countEnabledAdministratorsExcept(trx, id)) === 0
        ) {
          throw ApiError.conflict('这是最后一个启用的管理员，不能删除');
        }
        const count = await countDomainsOfOwner(trx, id);
        if (count > 0) {
          throw ApiError.conflict(`该账号还拥有 ${count} 个域名，请先删除这些域名后再删除账号`);
        }
        await revokeAllSessionsOfSystemAccount(trx, id, Date.now());
        await deleteMailboxesOfOwner(trx, id);
        await deleteSystemAccount(trx, id);
      });
    },

    find,

    async adminExists(): Promise<boolean> {
      return anyAdministratorExists(db);
    },
  };
}

export type SystemAccountService = ReturnType<typeof createSystemAccountService>;
