import { type Static, Type } from '@sinclair/typebox';

/*
 * Standard mail clients (IMAP, POP3, SMTP submission): what the "客户端设置" screen shows.
 */

/** `GET user/getClientSettings?address=`: a mailbox session may leave `address` out (its own). */
export const ClientSettingsQuery = Type.Object({
  address: Type.Optional(Type.String({ maxLength: 320, description: '邮箱地址' })),
});
export type ClientSettingsQuery = Static<typeof ClientSettingsQuery>;

/** One listener a client connects to: `STARTTLS` upgrades a plain port, `SSL` is implicit TLS. */
export const ClientServer = Type.Object({
  protocol: Type.Union([Type.Literal('imap'), Type.Literal('pop3'), Type.Literal('smtp')]),
  hostname: Type.String(),
  port: Type.Integer(),
  security: Type.Union([Type.Literal('STARTTLS'), Type.Literal('SSL')]),
});
export type ClientServer = Static<typeof ClientServer>;

export const ClientSettingsData = Type.Object({
  address: Type.String(),
  /** the user name to type in a client: the address itself */
  username: Type.String(),
  hostname: Type.String(),
  /** only the listeners that are on */
  servers: Type.Array(ClientServer),
  /** false for an address without a password (a temporary one, or an address without an account) */
  canLogin: Type.Boolean(),
  /** paths on this server: Thunderbird's autoconfig, Outlook's autodiscover, the Apple profile */
  autoconfigPath: Type.String(),
  autodiscoverPath: Type.String(),
  mobileconfigPath: Type.String(),
});
export type ClientSettingsData = Static<typeof ClientSettingsData>;
