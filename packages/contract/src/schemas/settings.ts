import { type Static, Type } from '@sinclair/typebox';

/**
 * System settings an administrator edits (the `system` part of getSetting and updateSetting). Stored
 * as one row per key; defaults live here so the server and the client agree on them.
 */
export const SystemSettings = Type.Object({
  siteName: Type.String({ minLength: 1, maxLength: 60, description: '站点名称' }),
  announcement: Type.String({ maxLength: 2000, description: '公告' }),
  registrationOpen: Type.Boolean({ description: '开放注册' }),
  storeOpen: Type.Boolean({ description: '开放商店' }),
  defaultDomainId: Type.Union(
    [Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: '默认域名' }), Type.Null()],
    {
      description: '默认域名',
    },
  ),
  retentionDays: Type.Integer({ minimum: 1, maximum: 3650, description: '邮件保留天数' }),
  /** Junk is purged after this many days when fewer than `retentionDays`; 0 = as long as the rest */
  junkRetentionDays: Type.Integer({ minimum: 0, maximum: 3650, description: '垃圾邮件保留天数' }),
  maxMessageBytes: Type.Integer({
    minimum: 1024,
    maximum: 200 * 1024 * 1024,
    description: '单封邮件大小上限',
  }),
  temporaryMailboxHours: Type.Integer({ minimum: 1, maximum: 24 * 365, description: '临时邮箱有效时长' }),
  defaultQuotaBytes: Type.Integer({ minimum: 0, maximum: 1024 ** 4, description: '默认邮箱容量' }),
  /** `smtp://` or `smtps://[user:pass@]host:port`; empty = deliver straight to the recipient's MX */
  relayUrl: Type.String({ maxLength: 500, description: '外发中继地址' }),
  /** messages one sending mailbox or account may send per hour / per day; 0 = no limit */
  sendPerHour: Type.Integer({ minimum: 0, maximum: 1_000_000, description: '每小时发信上限' }),
  sendPerDay: Type.Integer({ minimum: 0, maximum: 10_000_000, description: '每天发信上限' }),
  /**
   * login throttling: failed logins allowed per source address, and per account from one address,
   * within the window; a source address over its limit is banned for `loginBanMinutes`
   */
  loginMaxFailuresPerIp: Type.Integer({ minimum: 1, maximum: 10_000, description: '单个 IP 登录失败上限' }),
  loginMaxFailuresPerAccount: Type.Integer({
    minimum: 1,
    maximum: 1000,
    description: '单个账号登录失败上限',
  }),
  loginWindowMinutes: Type.Integer({ minimum: 1, maximum: 1440, description: '登录失败统计时长（分钟）' }),
  /** 0 = never ban automatically, only refuse with 429 */
  loginBanMinutes: Type.Integer({ minimum: 0, maximum: 525_600, description: '自动封禁时长（分钟）' }),
  /**
   * Whether temporary mailboxes and mailboxes a visitor registered may send beyond the service's own
   * domains; off, they reach only addresses on its active domains (403 otherwise)
   */
  anonymousSend: Type.Boolean({ description: '允许临时邮箱和访客注册的邮箱向外部发信' }),
  /** refuse (SMTP 550 5.7.1) mail failing DMARC when the sender's domain publishes p=reject */
  dmarcReject: Type.Boolean({ description: '拒收 DMARC 验证失败且发件域策略为 reject 的邮件' }),
  /** regEmail, buyEmail and verCard per source address per hour; 0 = no limit */
  registerPerIpPerHour: Type.Integer({ minimum: 0, maximum: 100_000, description: '每个 IP 每小时注册上限' }),
  /** local parts reserved on every domain beside RESERVED_LOCAL_PARTS: only owners and admins create them */
  reservedLocalParts: Type.Array(
    Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._+-]+$', description: '保留邮箱前缀' }),
    { maxItems: 500, description: '保留邮箱前缀' },
  ),
  /** addresses and CIDR ranges that automatic bans never touch (an operator's own networks) */
  banAllowList: Type.Array(Type.String({ minLength: 1, maxLength: 64, description: '永不自动封禁的 IP' }), {
    maxItems: 500,
    description: '永不自动封禁的 IP',
  }),
  /** hours between scheduled backups into DATA_DIR/backups; 0 = off */
  backupIntervalHours: Type.Integer({ minimum: 0, maximum: 24 * 30, description: '自动备份间隔（小时）' }),
  /** how many scheduled backups to keep (the oldest go first) */
  backupKeep: Type.Integer({ minimum: 1, maximum: 365, description: '保留的自动备份份数' }),
});
export type SystemSettings = Static<typeof SystemSettings>;

export const DEFAULT_SYSTEM_SETTINGS: SystemSettings = {
  siteName: '邮局',
  announcement: '',
  registrationOpen: true,
  storeOpen: true,
  defaultDomainId: null,
  retentionDays: 30,
  junkRetentionDays: 7,
  maxMessageBytes: 25 * 1024 * 1024,
  temporaryMailboxHours: 24,
  defaultQuotaBytes: 1024 * 1024 * 1024,
  relayUrl: '',
  sendPerHour: 30,
  sendPerDay: 200,
  loginMaxFailuresPerIp: 20,
  loginMaxFailuresPerAccount: 5,
  loginWindowMinutes: 15,
  loginBanMinutes: 60,
  anonymousSend: false,
  dmarcReject: true,
  registerPerIpPerHour: 10,
  reservedLocalParts: [],
  banAllowList: [],
  backupIntervalHours: 0,
  backupKeep: 7,
};

/**
 * Local parts nobody but a domain's owner or an administrator may take, on every domain: role
 * addresses that certificate authorities and other services trust as speaking for the domain
 * (CA/Browser Forum Baseline Requirements 3.2.2.4.4; RFC 2142).
 */
export const RESERVED_LOCAL_PARTS: readonly string[] = [
  'admin',
  'administrator',
  'webmaster',
  'hostmaster',
  'postmaster',
  'abuse',
  'security',
  'noc',
  'root',
  'ssl-admin',
  'mailer-daemon',
  'no-reply',
  'noreply',
];
