import { type Static, Type } from '@sinclair/typebox';
import { Id, LocalPart, NullableTime, Password, Time, Username } from './common.js';

/** The public settings getVar gives every caller, logged in or not. */
export const PublicSettings = Type.Object({
  siteName: Type.String(),
  announcement: Type.String(),
  initialized: Type.Boolean(),
  registrationOpen: Type.Boolean(),
  storeOpen: Type.Boolean(),
  version: Type.String(),
  retentionDays: Type.Integer(),
  maxMessageBytes: Type.Integer(),
  mailDomains: Type.Array(Type.String()),
});
export type PublicSettings = Static<typeof PublicSettings>;

/** getVar is the one call whose payload stands at the top level. */
export const GetVarResponse = Type.Object({
  error: Type.Integer(),
  msg: Type.String(),
  permissionData: Type.String(),
  settings: PublicSettings,
});
export type GetVarResponse = Static<typeof GetVarResponse>;

export const StartAuthBody = Type.Object({
  setupToken: Type.String({ minLength: 1, maxLength: 200, description: '初始化令牌' }),
  username: Username,
  password: Password,
});
export type StartAuthBody = Static<typeof StartAuthBody>;
export const StartAuthData = Type.Object({
  token: Type.String(),
  role: Type.String(),
  username: Type.String(),
});
export type StartAuthData = Static<typeof StartAuthData>;

export const OpenDomain = Type.Object({ id: Id, name: Type.String() });
export type OpenDomain = Static<typeof OpenDomain>;
export const OpenDomainList = Type.Array(OpenDomain);

export const SaleDomain = Type.Object({
  id: Id,
  name: Type.String(),
  /** price in fen (分) */
  price: Type.Integer(),
  stock: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  /** present (true) when the domain is also open for free registration: the store says so */
  freeRegistration: Type.Optional(Type.Boolean()),
});
export type SaleDomain = Static<typeof SaleDomain>;
export const SaleDomainList = Type.Array(SaleDomain);

export const BuyEmailBody = Type.Object({
  domainId: Id,
  localPart: LocalPart,
  password: Password,
  phone: Type.String({ pattern: '^\\+?[0-9]{5,20}$', description: '手机号' }),
  payMethod: Type.String({ minLength: 1, maxLength: 32, description: '支付方式' }),
});
export type BuyEmailBody = Static<typeof BuyEmailBody>;
export const OrderStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('paid'),
  Type.Literal('delivered'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
]);
export type OrderStatus = Static<typeof OrderStatus>;
export const BuyEmailData = Type.Object({
  orderNo: Type.String(),
  amount: Type.Integer(),
  status: OrderStatus,
  payUrl: Type.Optional(Type.String()),
  address: Type.Optional(Type.String()),
  /** manual payment: what the buyer must do, as the operator wrote it */
  instructions: Type.Optional(Type.String()),
  expiresAt: Type.Optional(NullableTime),
});
export type BuyEmailData = Static<typeof BuyEmailData>;

export const QueryOrderQuery = Type.Object({
  phone: Type.String({ minLength: 5, maxLength: 21, description: '手机号' }),
});
export const PublicOrder = Type.Object({
  orderNo: Type.String(),
  address: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Integer(),
  status: OrderStatus,
  createdAt: Time,
  paidAt: NullableTime,
  domainName: Type.Optional(Type.String()),
  payMethod: Type.Optional(Type.String()),
});
export type PublicOrder = Static<typeof PublicOrder>;
export const PublicOrderList = Type.Array(PublicOrder);

export const VerCardBody = Type.Object({
  code: Type.String({ minLength: 4, maxLength: 64, description: '卡密' }),
  localPart: LocalPart,
  domainId: Type.Optional(Id),
  password: Password,
});
export type VerCardBody = Static<typeof VerCardBody>;
export const VerCardData = Type.Object({
  address: Type.String(),
  expiresAt: NullableTime,
  /** true when the card extended an existing mailbox instead of creating one */
  extended: Type.Optional(Type.Boolean()),
});
export type VerCardData = Static<typeof VerCardData>;

/** GET /api/checkAddress: is this address free to buy or redeem (the store checks as people type)? */
export const CheckAddressQuery = Type.Object({
  domainId: Id,
  localPart: Type.String({ minLength: 1, maxLength: 64, description: '邮箱前缀' }),
});
export const CheckAddressData = Type.Object({
  address: Type.String(),
  available: Type.Boolean(),
  /** why not, in Chinese */
  reason: Type.Optional(Type.String()),
});
export type CheckAddressData = Static<typeof CheckAddressData>;

/** GET /api/getPayMethods: how a buyer can pay now. */
export const PayMethod = Type.Object({ id: Type.String(), name: Type.String() });
export type PayMethod = Static<typeof PayMethod>;
export const PayMethodList = Type.Array(PayMethod);
