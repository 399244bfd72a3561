import { type Static, Type } from '@sinclair/typebox';
import { EmailAddress, Time } from './common.js';

/** `GET user/getForward?address=`: the mailbox whose forwarding is asked about. */
export const ForwardQuery = Type.Object({ address: EmailAddress });
export type ForwardQuery = Static<typeof ForwardQuery>;

/**
 * `POST user/setForward`: `forwardTo` null removes the forwarding; `keepCopy` (default true) keeps
 * a copy in the mailbox; `enabled` (default true) pauses it without forgetting the target.
 */
export const SetForward = Type.Object({
  address: EmailAddress,
  forwardTo: Type.Union([EmailAddress, Type.Null()], { description: '转发到' }),
  keepCopy: Type.Optional(Type.Boolean({ description: '保留本地副本' })),
  enabled: Type.Optional(Type.Boolean({ description: '启用' })),
});
export type SetForward = Static<typeof SetForward>;

/** The latest copy that was not forwarded, and why (sending limit, loop, policy). */
export const ForwardSkip = Type.Union([Type.Object({ at: Time, reason: Type.String() }), Type.Null()]);

export const ForwardSetting = Type.Object({
  address: Type.String(),
  /** null: no forwarding */
  forwardTo: Type.Union([Type.String(), Type.Null()]),
  keepCopy: Type.Boolean(),
  enabled: Type.Boolean(),
  lastSkipped: ForwardSkip,
});
export type ForwardSetting = Static<typeof ForwardSetting>;
