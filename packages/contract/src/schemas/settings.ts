import { type Static, Type } from '@sinclair/typebox';

/**
 * System settings an administrator edits (PRODUCT.md, issue "Run the service"). Stored as one row
 * per key; defaults live here so the server and the client agree on them.
 */
export const SystemSettings = Type.Object({
  siteName: Type.String({ minLength: 1, maxLength: 60, description: '站点名称' }),
  announcement: Type.String({ maxLength: 2000, description: '公告' }),
  registrationOpen: Type.Boolean({ description: '开放注册' }),
  storeOpen: Type.Boolean({ description: '开放商店' }),
  defaultDomainId: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: '默认域名' }),
  retentionDays: Type.Integer({ minimum: 1, maximum: 3650, description: '邮件保留天数' }),
  maxMessageBytes: Type.Integer({
    minimum: 1024,
    maximum: 200 * 1024 * 1024,
    description: '单封邮件大小上限',
  }),
  temporaryMailboxHours: Type.Integer({ minimum: 1, maximum: 24 * 365, description: '临时邮箱有效时长' }),
  defaultQuotaBytes: Type.Integer({ minimum: 0, maximum: 1024 ** 4, description: '默认邮箱容量' }),
});
export type SystemSettings = Static<typeof SystemSettings>;

export const DEFAULT_SYSTEM_SETTINGS: SystemSettings = {
  siteName: '邮局',
  announcement: '',
  registrationOpen: true,
  storeOpen: true,
  defaultDomainId: null,
  retentionDays: 30,
  maxMessageBytes: 25 * 1024 * 1024,
  temporaryMailboxHours: 24,
  defaultQuotaBytes: 1024 * 1024 * 1024,
};
