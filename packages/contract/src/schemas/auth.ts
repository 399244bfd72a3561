import { type Static, Type } from '@sinclair/typebox';
import { EmailAddress, Id, LocalPart, NullableTime, Password } from './common.js';

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64, description: '用户名' }),
  password: Type.String({ minLength: 1, maxLength: 128, description: '密码' }),
});
export type LoginBody = Static<typeof LoginBody>;
export const LoginData = Type.Object({ token: Type.String(), role: Type.String(), username: Type.String() });
export type LoginData = Static<typeof LoginData>;

export const LoginEmailBody = Type.Object({
  email: EmailAddress,
  password: Type.String({ minLength: 1, maxLength: 128, description: '密码' }),
});
export type LoginEmailBody = Static<typeof LoginEmailBody>;
export const LoginEmailData = Type.Object({ token: Type.String(), email: Type.String() });
export type LoginEmailData = Static<typeof LoginEmailData>;

export const RegEmailBody = Type.Object({
  domainId: Id,
  localPart: Type.Optional(LocalPart),
  password: Type.Optional(Password),
});
export type RegEmailBody = Static<typeof RegEmailBody>;
export const RegEmailData = Type.Object({
  token: Type.String(),
  email: Type.String(),
  expiresAt: Type.Optional(NullableTime),
  /**
   * Only for a temporary mailbox (no `password` given), only in this response: its generated
   * password, which logs it back in with loginEmail. The server keeps only its hash.
   */
  credential: Type.Optional(Type.String({ description: '临时邮箱凭证（只返回一次）' })),
});
export type RegEmailData = Static<typeof RegEmailData>;

export const ChangePasswordBody = Type.Object({
  /**
   * Required, except for a temporary mailbox whose password nobody chose yet (none, or the
   * generated credential): it sets its first password from its own session without one.
   */
  oldPassword: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: '原密码' })),
  newPassword: Password,
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;
