import { type Static, Type } from '@sinclair/typebox';
import { BlacklistEntry } from './admin.js';
import { EmailAddress, Id, LocalPart, NullableTime, PageQuery, Time } from './common.js';
import { SystemSettings } from './settings.js';

/*
 * Running the service: settings, version, security, API keys, the open API and the dashboard.
 */

// ---- settings (getSetting / updateSetting) ----

/** What every role edits for itself. */
export const PersonalSettings = Type.Object({
  displayName: Type.String({ maxLength: 60, description: '显示名称' }),
  signature: Type.String({ maxLength: 2000, description: '邮件签名' }),
});
export type PersonalSettings = Static<typeof PersonalSettings>;

/**
 * System settings as an administrator reads them: the relay password is masked (`******`, nothing
 * of the secret itself) and `relayPasswordSet` says whether there is one. Sending the masked URL
 * back keeps the stored password.
 */
export const SystemSettingsView = Type.Composite([
  SystemSettings,
  Type.Object({ relayPasswordSet: Type.Boolean() }),
]);
export type SystemSettingsView = Static<typeof SystemSettingsView>;

/**
 * Payment provider settings (stored by the store's payment module under the `payment` key) as
 * read: the EPay key never comes back, only `epayKeySet` and `epayKeyMasked`.
 */
export const PaymentSettingsView = Type.Object({
  manualEnabled: Type.Boolean(),
  manualInstructions: Type.String(),
  epayEnabled: Type.Boolean(),
  epayGatewayUrl: Type.String(),
  epayMerchantId: Type.String(),
  epayKeySet: Type.Boolean(),
  epayKeyMasked: Type.String(),
  epayTypes: Type.Array(Type.String()),
  siteUrl: Type.String(),
  orderTimeoutMinutes: Type.Integer(),
});
export type PaymentSettingsView = Static<typeof PaymentSettingsView>;

export const PaymentSettingsChanges = Type.Partial(
  Type.Object({
    manualEnabled: Type.Boolean({ description: '人工确认收款' }),
    manualInstructions: Type.String({ maxLength: 1000, description: '人工付款说明' }),
    epayEnabled: Type.Boolean({ description: '易支付' }),
    epayGatewayUrl: Type.String({ maxLength: 300, description: '易支付网关地址' }),
    epayMerchantId: Type.String({ maxLength: 64, description: '易支付商户号' }),
    /** write-only; empty or the masked value keeps the stored key */
    epayKey: Type.String({ maxLength: 200, description: '易支付密钥' }),
    epayTypes: Type.Array(Type.String({ pattern: '^[a-z0-9_]{1,20}$', description: '支付方式' }), {
      maxItems: 10,
      description: '支付方式',
    }),
    siteUrl: Type.String({ maxLength: 300, description: '站点地址' }),
    orderTimeoutMinutes: Type.Integer({ minimum: 5, maximum: 1440, description: '订单有效分钟数' }),
  }),
);
export type PaymentSettingsChanges = Static<typeof PaymentSettingsChanges>;

/** getSetting: `system` and `payment` for administrators only, `personal` for everyone. */
export const SettingData = Type.Object({
  personal: PersonalSettings,
  system: Type.Optional(SystemSettingsView),
  payment: Type.Optional(PaymentSettingsView),
});
export type SettingData = Static<typeof SettingData>;

/** updateSetting: any subset of each part; only administrators may send `system` or `payment`. */
export const UpdateSettingBody = Type.Object({
  personal: Type.Optional(Type.Partial(PersonalSettings)),
  system: Type.Optional(Type.Partial(SystemSettings)),
  payment: Type.Optional(PaymentSettingsChanges),
});
export type UpdateSettingBody = Static<typeof UpdateSettingBody>;

/** The mask a secret is shown with. */
export const SECRET_MASK = '******';

// ---- version (getVersion) ----

export const VersionInfo = Type.Object({
  version: Type.String(),
  /** git commit the build was made from; null when built outside a git checkout */
  commit: Type.Union([Type.String(), Type.Null()]),
  buildDate: NullableTime,
  node: Type.String(),
  engine: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  schemaVersion: Type.Integer(),
  startedAt: Time,
  uptimeSeconds: Type.Integer(),
  /** CHANGELOG.md as shipped (Markdown) */
  changelog: Type.String(),
});
export type VersionInfo = Static<typeof VersionInfo>;

// ---- security (getSessions, revokeSession, revokeOtherSessions, getLoginHistory) ----

export const SessionItem = Type.Object({
  id: Id,
  ip: Type.String(),
  userAgent: Type.String(),
  /** the user agent in words, e.g. "Windows 电脑 · Chrome 浏览器" */
  device: Type.String(),
  createdAt: Time,
  lastSeenAt: Time,
  current: Type.Boolean(),
});
export type SessionItem = Static<typeof SessionItem>;
export const SessionList = Type.Array(SessionItem);

export const RevokedCount = Type.Object({ revoked: Type.Integer() });

export const LoginHistoryItem = Type.Object({
  id: Id,
  /** what was typed: user name or mailbox address */
  identifier: Type.String(),
  ip: Type.String(),
  userAgent: Type.String(),
  device: Type.String(),
  success: Type.Boolean(),
  /** why a failure failed, in Chinese; empty on success */
  reason: Type.String(),
  createdAt: Time,
});
export type LoginHistoryItem = Static<typeof LoginHistoryItem>;
export const LoginHistoryQuery = PageQuery;

// ---- firewall (waf/…) ----

export const BlacklistSource = Type.Union([
  Type.Literal('manual'),
  Type.Literal('login'),
  Type.Literal('smtp'),
]);
export type BlacklistSource = Static<typeof BlacklistSource>;
export const BlacklistItem = Type.Composite([
  BlacklistEntry,
  Type.Object({
    source: BlacklistSource,
    /** false once expired (kept until the purge so the list shows what happened) */
    active: Type.Boolean(),
  }),
]);
export type BlacklistItem = Static<typeof BlacklistItem>;
export const BlacklistList = Type.Array(BlacklistItem);

export const AddBlacklistQuery = Type.Object({
  ip: Type.String({ minLength: 2, maxLength: 64, description: 'IP 地址' }),
  reason: Type.Optional(Type.String({ maxLength: 200, description: '原因' })),
  /** ISO 8601 or epoch milliseconds; absent or empty = never expires */
  expiresAt: Type.Optional(Type.String({ maxLength: 40, description: '到期时间' })),
  /** 1 = yes, ban it even though the caller's own address is inside */
  confirm: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, description: '确认' })),
});
export type AddBlacklistQuery = Static<typeof AddBlacklistQuery>;
export const RemoveBlacklistQuery = Type.Object({
  ip: Type.String({ minLength: 2, maxLength: 64, description: 'IP 地址' }),
});

// ---- API key (getKey, refreshKey) ----

export const ApiKeyView = Type.Object({
  /** the full key right after it was created or refreshed; the masked key afterwards */
  key: Type.String(),
  masked: Type.Boolean(),
  maskedKey: Type.String(),
  createdAt: Time,
  lastUsedAt: NullableTime,
});
export type ApiKeyView = Static<typeof ApiKeyView>;

/** The header the open API reads the key from. */
export const API_KEY_HEADER = 'X-API-Key';

// ---- open API (open/…) ----

export const OpenCreateEmailBody = Type.Object({
  domainId: Type.Optional(Id),
  localPart: Type.Optional(LocalPart),
});
export type OpenCreateEmailBody = Static<typeof OpenCreateEmailBody>;
export const OpenInboxQuery = Type.Composite([PageQuery, Type.Object({ address: EmailAddress })]);
export type OpenInboxQuery = Static<typeof OpenInboxQuery>;
export const OpenWaitQuery = Type.Object({
  address: EmailAddress,
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 30, description: '等待秒数' })),
  /** a message id: answer the first newer one (0 = any message already there) */
  after: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: '邮件编号' }),
  ),
});
export type OpenWaitQuery = Static<typeof OpenWaitQuery>;

// ---- dashboard (getDashboard) ----

export const DashboardTotals = Type.Object({
  receivedToday: Type.Integer(),
  received30d: Type.Integer(),
  sentToday: Type.Integer(),
  sent30d: Type.Integer(),
  addresses: Type.Integer(),
  mailboxes: Type.Integer(),
  domains: Type.Integer(),
  storageBytes: Type.Integer(),
  queueLength: Type.Integer(),
  deliveryFailures: Type.Integer(),
});
export type DashboardTotals = Static<typeof DashboardTotals>;
export const DashboardDay = Type.Object({
  /** YYYY-MM-DD in the server's time zone */
  date: Type.String(),
  received: Type.Integer(),
  sent: Type.Integer(),
});
export const DashboardRadar = Type.Object({ name: Type.String(), value: Type.Number(), max: Type.Number() });
export const DashboardView = Type.Object({
  /** `system` for administrators, `own` for a user's domains and mailboxes */
  scope: Type.Union([Type.Literal('system'), Type.Literal('own')]),
  totals: DashboardTotals,
  daily: Type.Array(DashboardDay),
  radar: Type.Array(DashboardRadar),
});
export type DashboardView = Static<typeof DashboardView>;

/**
 * GET user/getGuide: the first-run checklist of a system account (添加域名 → 配置 DNS → 发送测试邮件
 * → 收到邮件), each step from real state in the caller's scope (administrators: the whole system).
 */
export const GuideState = Type.Object({
  /** domains the caller manages */
  domains: Type.Integer(),
  /** at least one of them passed the DNS check (dnsStatus `ok`) */
  dnsReady: Type.Boolean(),
  /** a message was sent from one of the caller's addresses */
  testMailSent: Type.Boolean(),
  /** a message arrived in one of the caller's mailboxes */
  mailReceived: Type.Boolean(),
  /** the caller's first active domain (for the steps' links and the test mail), or null */
  firstDomain: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
});
export type GuideState = Static<typeof GuideState>;
