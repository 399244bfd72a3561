import { type Static, Type } from '@sinclair/typebox';
import { Id, NullableTime, Password, Time, Username } from './common.js';

export const SystemRoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('user')], {
  description: '角色',
});
export const Limit = Type.Integer({ minimum: 0, maximum: 1_000_000, description: '数量上限' });

export const SysAccount = Type.Object({
  id: Id,
  username: Type.String(),
  role: SystemRoleSchema,
  enabled: Type.Boolean(),
  /** 0 means no limit */
  maxDomains: Type.Integer(),
  /** 0 means no limit */
  maxMailboxes: Type.Integer(),
  createdAt: Time,
  lastLoginAt: NullableTime,
});
export type SysAccount = Static<typeof SysAccount>;

export const CreateSysAccountBody = Type.Object({
  username: Username,
  password: Password,
  role: SystemRoleSchema,
  maxDomains: Type.Optional(Limit),
  maxMailboxes: Type.Optional(Limit),
});
export type CreateSysAccountBody = Static<typeof CreateSysAccountBody>;
export const EditSysAccountBody = Type.Object({
  id: Id,
  password: Type.Optional(Password),
  role: Type.Optional(SystemRoleSchema),
  enabled: Type.Optional(Type.Boolean()),
  maxDomains: Type.Optional(Limit),
  maxMailboxes: Type.Optional(Limit),
});
export type EditSysAccountBody = Static<typeof EditSysAccountBody>;

export const IpQuery = Type.Object({
  ip: Type.String({ minLength: 2, maxLength: 64, description: 'IP 地址' }),
  reason: Type.Optional(Type.String({ maxLength: 200 })),
  expiresAt: Type.Optional(Type.String({ maxLength: 40 })),
});
export const BlacklistEntry = Type.Object({
  ip: Type.String(),
  reason: Type.String(),
  createdAt: Time,
  expiresAt: NullableTime,
});
export const BlacklistData = Type.Array(BlacklistEntry);
