import type {
  ChangePasswordBody,
  LoginBody,
  LoginData,
  LoginEmailBody,
  LoginEmailData,
  RegEmailBody,
  RegEmailData,
  StartAuthBody,
  StartAuthData,
  SystemSettings,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { findDomainById } from '../../db/repositories/domain-repo.js';
import { hasSucceededFrom } from '../../db/repositories/login-history-repo.js';
import {
  findAccountByAddress,
  getMailboxById,
  insertMailbox,
  setMailboxPasswordHash,
} from '../../db/repositories/mailbox-repo.js';
import {
  anyAdministratorExists,
  findSystemAccountByUsername,
  getSystemAccountById,
  insertSystemAccount,
  updateSystemAccount,
} from '../../db/repositories/system-account-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import { HOUR, toIso } from '../../lib/time.js';
import { newMailboxCredential, randomLocalPart } from '../../lib/tokens.js';
import { refuseReservedLocalPart } from '../domains/index.js';
import { addressTakenReason } from '../email-accounts/index.js';
import type { FirewallService } from '../firewall/index.js';
import type { LoginAttempt } from '../security/index.js';
import type { AuthContext, ClientInfo, SessionService } from '../sessions/index.js';
import type { SettingsService } from '../settings/index.js';
import { createLoginThrottle, type LoginAttemptTicket } from './login-throttle.js';
import { ensureSetupToken, matchesSetupToken, removeSetupToken } from './setup-token.js';
import { createSignUpLimit } from './sign-up-limit.js';

const WRONG_CREDENTIALS = '用户名或密码错误';
const WRONG_MAILBOX_CREDENTIALS = '邮箱地址或密码错误';

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export function createAuthService(deps: {
  db: Kysely<Database>;
  config: Config;
  sessions: SessionService;
  settings: SettingsService;
  log: Logger;
  /** automatic bans of abusive IPs */
  firewall?: FirewallService;
  /** the login history of /user/safe */
  history?: { recordLogin(attempt: LoginAttempt): Promise<void> };
  rateLimits: RateLimits;
}) {
  const { db, config, sessions, settings, log, firewall, history, rateLimits } = deps;
  const throttle = createLoginThrottle({
    rateLimits,
    limits: async () => {
      const current = await settings.get();
      return {
        maxPerIp: current.loginMaxFailuresPerIp,
        maxPerAccount: current.loginMaxFailuresPerAccount,
        windowMinutes: current.loginWindowMinutes,
        banMinutes: current.loginBanMinutes,
      };
    },
    ban: firewall ? (ip, reason, minutes) => firewall.ban(ip, reason, minutes, 'login') : undefined,
  });
  const record = (attempt: LoginAttempt) => history?.recordLogin(attempt);
  /** The throttle's admission, with a refused attempt written to the history too. */
  async function admit(attempt: Omit<LoginAttempt, 'success'>, key: string): Promise<LoginAttemptTicket> {
    try {
      return await throttle.admit(attempt.client.ip, key, () =>
        knownSource(attempt.kind, attempt.identifier, attempt.client.ip),
      );
    } catch (error) {
      await record({ ...attempt, success: false, reason: '失败次数过多，已被限制' });
      throw error;
    }
  }
  /** Whether this address has logged into the account before: the owner's usual network. */
  async function knownSource(kind: LoginAttempt['kind'], identifier: string, ip: string): Promise<boolean> {
    // Cut as the history stores them (security-service's recordLogin).
    return hasSucceededFrom(db, kind, identifier.slice(0, 254), ip.slice(0, 64));
  }
  const signUpLimit = createSignUpLimit(rateLimits, settings);

  /** regEmail's work once the sign-up limit admitted it. */
  async function register(
    input: RegEmailBody,
    client: ClientInfo,
    current: SystemSettings,
  ): Promise<RegEmailData> {
    const domain = await findDomainById(db, input.domainId);
    if (domain?.public_registration !== 1 || domain.status !== 'active') {
      throw ApiError.badRequest('该域名不开放注册，请选择其他域名');
    }
    if (input.localPart !== undefined) await refuseReservedLocalPart(settings, input.localPart);
    const chosen = input.localPart !== undefined;
    const temporary = !input.password;
    // A temporary mailbox gets a generated credential so its visitor can come back after logging
    // out: hashed like any password, returned in this response only (docs/api.md).
    const credential = temporary ? newMailboxCredential() : undefined;
    const password = await hashPassword(input.password || (credential as string));
    const now = Date.now();
    const expiresAt = temporary ? now + current.temporaryMailboxHours * HOUR : null;
    for (let attempt = 0; attempt < 5; attempt++) {
      const localPart = (input.localPart ?? randomLocalPart()).toLowerCase();
      const address = `${localPart}@${domain.name}`;
      // A mailbox, or a store order that holds the name until it is paid or expires.
      const taken = await addressTakenReason(db, address);
      if (taken) {
        if (chosen) throw ApiError.conflict(taken);
        continue;
      }
      const row = await insertMailbox(db, {
        address,
        local_part: localPart,
        domain_id: domain.id,
        owner_id: domain.owner_id,
        kind: 'account',
        password_hash: password,
        enabled: 1,
        quota_bytes: current.defaultQuotaBytes,
        used_bytes: 0,
        expires_at: expiresAt,
        source: temporary ? 'temporary' : 'register',
        note: '',
        created_at: now,
        password_generated: temporary ? 1 : 0,
      });
      const token = await sessions.issue('mailbox', row.id, client, expiresAt);
      return credential === undefined
        ? { token, email: address, expiresAt: toIso(expiresAt) }
        : { token, email: address, expiresAt: toIso(expiresAt), credential };
    }
    throw ApiError.conflict('生成随机邮箱失败，请重试');
  }

  async function authenticateMailbox(email: string, password: string, client: ClientInfo) {
    const address = email.trim().toLowerCase();
    const ticket = await admit(
      { kind: 'mailbox', subjectId: null, identifier: address, client },
      `mailbox:${address}`,
    );
    const mailbox = await findAccountByAddress(db, address);
    const valid = await verifyPassword(password, mailbox?.password_hash ?? null);
    const attempt = {
      kind: 'mailbox' as const,
      subjectId: mailbox?.id ?? null,
      identifier: address,
      client,
    };
    if (!mailbox || !valid) {
      await record({ ...attempt, success: false, reason: mailbox ? '密码错误' : '邮箱不存在' });
      await ticket.failed();
      throw ApiError.badRequest(WRONG_MAILBOX_CREDENTIALS);
    }
    if (mailbox.enabled !== 1) {
      await record({ ...attempt, success: false, reason: '邮箱已停用' });
      throw ApiError.forbidden('该邮箱已被停用，请联系管理员');
    }
    if (mailbox.expires_at !== null && mailbox.expires_at <= Date.now()) {
      await record({ ...attempt, success: false, reason: '邮箱已过期' });
      throw ApiError.forbidden('该邮箱已过期，请续期后再登录');
    }
    await ticket.succeeded();
    await record({ ...attempt, success: true });
    return mailbox;
  }

  const adminExists = () => anyAdministratorExists(db);

  async function createAdmin(username: string, password: string): Promise<number> {
    const row = await insertSystemAccount(db, {
      username,
      password_hash: await hashPassword(password),
      role: 'admin',
      enabled: 1,
      max_domains: 0,
      max_mailboxes: 0,
      created_at: Date.now(),
    });
    return row.id;
  }

  return {
    /**
     * On start: create the first administrator from INIT_ADMIN_USER/INIT_ADMIN_PASSWORD, or, with no
     * administrator at all, make sure a set-up token exists and say where it is.
     */
    async bootstrap(): Promise<void> {
      if (await adminExists()) return;
      if (config.initAdminUser && config.initAdminPassword) {
        await createAdmin(config.initAdminUser, config.initAdminPassword);
        await removeSetupToken(config.dataDir);
        log.info(`已按 INIT_ADMIN_USER 创建管理员 ${config.initAdminUser}`);
        return;
      }
      const token = await ensureSetupToken(config.dataDir);
      log.warn(
        `系统尚未初始化。初始化令牌（setup token）：${token} ——也保存在 ${config.dataDir}/setup-token，打开网页的登录页完成初始化`,
      );
    },

    async startAuth(input: StartAuthBody, client: ClientInfo): Promise<StartAuthData> {
      if (await adminExists()) throw ApiError.conflict('系统已经初始化，请直接登录');
      const ticket = await throttle.admit(client.ip, 'setup');
      if (!(await matchesSetupToken(config.dataDir, input.setupToken))) {
        await ticket.failed();
        throw ApiError.forbidden('初始化令牌不正确：请查看服务器日志或数据目录下的 setup-token 文件');
      }
      // Two racing set-ups: the unique username and the second adminExists check keep one winner.
      const id = await createAdmin(input.username.trim(), input.password);
      await removeSetupToken(config.dataDir);
      await ticket.succeeded();
      const token = await sessions.issue('system', id, client);
      return { token, role: 'admin', username: input.username.trim() };
    },

    async login(input: LoginBody, client: ClientInfo): Promise<LoginData> {
      const username = input.username.trim();
      const ticket = await admit(
        { kind: 'system', subjectId: null, identifier: username, client },
        `system:${username}`,
      );
      const account = await findSystemAccountByUsername(db, username);
      const valid = await verifyPassword(input.password, account?.password_hash ?? null);
      const attempt = {
        kind: 'system' as const,
        subjectId: account?.id ?? null,
        identifier: username,
        client,
      };
      if (!account || !valid) {
        await record({ ...attempt, success: false, reason: account ? '密码错误' : '账号不存在' });
        await ticket.failed();
        throw ApiError.badRequest(WRONG_CREDENTIALS);
      }
      if (account.enabled !== 1) {
        await record({ ...attempt, success: false, reason: '账号已停用' });
        throw ApiError.forbidden('该账号已被停用，请联系管理员');
      }
      await ticket.succeeded();
      await record({ ...attempt, success: true });
      await updateSystemAccount(db, account.id, { last_login_at: Date.now() });
      const token = await sessions.issue('system', account.id, client);
      return { token, role: account.role, username: account.username };
    },

    async loginEmail(input: LoginEmailBody, client: ClientInfo): Promise<LoginEmailData> {
      const mailbox = await authenticateMailbox(input.email, input.password, client);
      const token = await sessions.issue('mailbox', mailbox.id, client);
      return { token, email: mailbox.address };
    },

    /**
     * The mailbox credentials check of loginEmail, for the mail-client protocols (IMAP, POP3, SMTP
     * submission): the same throttle per account and source, the same login history; no session.
     * Throws `ApiError` (400 wrong credentials, 403 disabled or expired, 429 throttled).
     */
    authenticateMailbox(email: string, password: string, client: ClientInfo) {
      return authenticateMailbox(email, password, client);
    },

    /**
     * Registers a mailbox on a domain open for registration. Without a password it is a temporary
     * mailbox: it expires after the configured hours, and its generated credential (returned once
     * as `credential`) logs it back in with loginEmail.
     */
    async regEmail(input: RegEmailBody, client: ClientInfo): Promise<RegEmailData> {
      const current = await settings.get();
      if (!current.registrationOpen) throw ApiError.forbidden('本站暂未开放注册');
      return signUpLimit.run(client.ip, () => register(input, client, current));
    },

    async logout(auth: AuthContext): Promise<void> {
      await sessions.revoke(auth.sessionId);
    },

    /**
     * Changes the caller's own password. Every session of the account ends, this one included; the
     * caller gets a fresh token to carry on.
     */
    async changePassword(
      auth: AuthContext,
      input: ChangePasswordBody,
      client: ClientInfo,
    ): Promise<{ token: string }> {
      const throttleKey = `change:${auth.role}:${auth.accountId ?? auth.mailboxId}`;
      const ticket = await throttle.admit(client.ip, throttleKey, async () => true);
      if (auth.role === 'mailbox') {
        // The caller's own mailbox: the id comes from the session, never from the body.
        const mailbox = await getMailboxById(db, auth.mailboxId ?? -1);
        // A one-click temporary mailbox whose password nobody chose (none at all, from before
        // migration 060, or the generated credential) sets its first one without an old one:
        // its visitor never had one to type. Mailboxes an owner or administrator created never
        // take this path, and after it the old password is asked like everywhere else. The risk
        // accepted (docs/api.md): whoever holds such a mailbox's session can choose its password.
        const firstPassword =
          mailbox.source === 'temporary' &&
          (mailbox.password_hash === null || mailbox.password_generated === 1);
        const skipOld = firstPassword && !input.oldPassword;
        if (!skipOld) {
          if (!input.oldPassword) throw ApiError.badRequest('请输入原密码');
          if (!(await verifyPassword(input.oldPassword, mailbox.password_hash))) {
            await ticket.failed();
            throw ApiError.badRequest('原密码不正确');
          }
        }
        await setMailboxPasswordHash(db, mailbox.id, await hashPassword(input.newPassword));
        await ticket.succeeded();
        await sessions.revokeAll('mailbox', mailbox.id);
        return { token: await sessions.issue('mailbox', mailbox.id, client) };
      }
      const account = await getSystemAccountById(db, auth.accountId ?? -1);
      if (!input.oldPassword) throw ApiError.badRequest('请输入原密码');
      if (!(await verifyPassword(input.oldPassword, account.password_hash))) {
        await ticket.failed();
        throw ApiError.badRequest('原密码不正确');
      }
      await updateSystemAccount(db, account.id, { password_hash: await hashPassword(input.newPassword) });
      await ticket.succeeded();
      await sessions.revokeAll('system', account.id);
      return { token: await sessions.issue('system', account.id, client) };
    },

    adminExists,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
