import { type Static, Type } from '@sinclair/typebox';
import { Id, Ids, LocalPart, NullableTime, PageQuery, Password, Time, TimeInput } from './common.js';
import { OrderStatus } from './public.js';

export const QuotaBytes = Type.Integer({ minimum: 0, maximum: 1024 ** 4, description: '容量' });

export const EmailAccount = Type.Object({
  id: Id,
  email: Type.String(),
  domainId: Id,
  enabled: Type.Boolean(),
  quotaBytes: Type.Integer(),
  usedBytes: Type.Integer(),
  expiresAt: NullableTime,
  source: Type.String(),
  note: Type.String(),
  createdAt: Time,
  /** a one-click temporary mailbox (expires; its password, if any, is generated or set later) */
  temporary: Type.Optional(Type.Boolean()),
});
export type EmailAccount = Static<typeof EmailAccount>;

/** Filters shared by getEmailAccount, searchEmailAccount and the CSV export. */
export const EmailAccountFilter = Type.Object({
  enabled: Type.Optional(Type.Boolean({ description: '启用状态' })),
  /** true: only expired mailboxes; false: only those still valid (or never expiring) */
  expired: Type.Optional(Type.Boolean({ description: '是否过期' })),
  domainId: Type.Optional(Id),
});
export type EmailAccountFilter = Static<typeof EmailAccountFilter>;
export const EmailAccountQuery = Type.Composite([
  PageQuery,
  EmailAccountFilter,
  Type.Object({ content: Type.Optional(Type.String({ maxLength: 254, description: '搜索内容' })) }),
]);
export type EmailAccountQuery = Static<typeof EmailAccountQuery>;
export const SearchAccountQuery = Type.Composite([
  PageQuery,
  EmailAccountFilter,
  Type.Object({ content: Type.String({ maxLength: 254, description: '搜索内容' }) }),
]);
export const CreateEmailAccountBody = Type.Object({
  domainId: Id,
  localPart: LocalPart,
  password: Password,
  quotaBytes: Type.Optional(QuotaBytes),
  expiresAt: Type.Optional(Type.Union([TimeInput, Type.Null()])),
  note: Type.Optional(Type.String({ maxLength: 200 })),
});
export type CreateEmailAccountBody = Static<typeof CreateEmailAccountBody>;
export const EditEmailAccountBody = Type.Object({
  id: Id,
  password: Type.Optional(Password),
  quotaBytes: Type.Optional(QuotaBytes),
  expiresAt: Type.Optional(Type.Union([TimeInput, Type.Null()])),
  enabled: Type.Optional(Type.Boolean()),
  note: Type.Optional(Type.String({ maxLength: 200 })),
});
export type EditEmailAccountBody = Static<typeof EditEmailAccountBody>;
export const BatchEditEmailAccountBody = Type.Object({
  ids: Ids,
  enabled: Type.Optional(Type.Boolean()),
  quotaBytes: Type.Optional(QuotaBytes),
  expiresAt: Type.Optional(Type.Union([TimeInput, Type.Null()])),
  /** adds days to each expiry (counted from now for an expired one); never-expiring ones stay so */
  extendDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 36500, description: '延长天数' })),
});
export type BatchEditEmailAccountBody = Static<typeof BatchEditEmailAccountBody>;

/** CSV import: the file's text, read by the browser (or curl --data-binary) and sent as JSON. */
export const ImportEmailAccountBody = Type.Object({
  csv: Type.String({ minLength: 1, maxLength: 4 * 1024 * 1024, description: 'CSV 内容' }),
  /** minutes east of UTC for times without a zone (the browser's); default +480 (China) */
  utcOffsetMinutes: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
});
export type ImportEmailAccountBody = Static<typeof ImportEmailAccountBody>;
export const ImportRowResult = Type.Object({
  /** line number in the file, from 1 (the header is line 1 when present) */
  line: Type.Integer(),
  address: Type.String(),
  ok: Type.Boolean(),
  /** why the row was refused, in the caller's language (Accept-Language) */
  reason: Type.Optional(Type.String()),
  id: Type.Optional(Id),
});
export type ImportRowResult = Static<typeof ImportRowResult>;
export const ImportEmailAccountData = Type.Object({
  created: Type.Integer(),
  failed: Type.Integer(),
  rows: Type.Array(ImportRowResult),
});
export type ImportEmailAccountData = Static<typeof ImportEmailAccountData>;
export const ExportEmailAccountQuery = Type.Composite([
  EmailAccountFilter,
  Type.Object({
    content: Type.Optional(Type.String({ maxLength: 254, description: '搜索内容' })),
    utcOffsetMinutes: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
  }),
]);
export type ExportEmailAccountQuery = Static<typeof ExportEmailAccountQuery>;

export const CardStatus = Type.Union([
  Type.Literal('unused'),
  Type.Literal('used'),
  Type.Literal('disabled'),
]);
export const Card = Type.Object({
  id: Id,
  code: Type.String(),
  domainId: Type.Union([Id, Type.Null()]),
  validDays: Type.Integer(),
  quotaBytes: Type.Integer(),
  status: CardStatus,
  usedBy: Type.Union([Type.String(), Type.Null()]),
  usedAt: NullableTime,
  note: Type.String(),
  createdAt: Time,
  /** the generation batch, for export */
  batchId: Type.Optional(Type.String()),
  domainName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type Card = Static<typeof Card>;
export type CardStatus = Static<typeof CardStatus>;
export const CardQuery = Type.Composite([
  PageQuery,
  Type.Object({
    status: Type.Optional(CardStatus),
    batchId: Type.Optional(Type.String({ maxLength: 64, description: '批次' })),
  }),
]);
export type CardQuery = Static<typeof CardQuery>;
export const CreateCardBody = Type.Object({
  count: Type.Integer({ minimum: 1, maximum: 1000, description: '数量' }),
  domainId: Type.Optional(Id),
  validDays: Type.Integer({ minimum: 1, maximum: 36500, description: '有效天数' }),
  quotaBytes: Type.Optional(QuotaBytes),
  note: Type.Optional(Type.String({ maxLength: 200 })),
});
export type CreateCardBody = Static<typeof CreateCardBody>;
export const CreateCardData = Type.Object({
  codes: Type.Array(Type.String()),
  batchId: Type.Optional(Type.String()),
});
export type CreateCardData = Static<typeof CreateCardData>;
export const EditCardBody = Type.Object({
  id: Id,
  status: Type.Optional(
    Type.Union([Type.Literal('unused'), Type.Literal('disabled')], { description: '状态' }),
  ),
  note: Type.Optional(Type.String({ maxLength: 200 })),
});
export type EditCardBody = Static<typeof EditCardBody>;
export const DelCardBody = Type.Object({ ids: Ids });
export const CardBatch = Type.Object({
  batchId: Type.String(),
  count: Type.Integer(),
  unused: Type.Integer(),
  note: Type.String(),
  createdAt: Time,
});
export type CardBatch = Static<typeof CardBatch>;
export const ExportCardQuery = Type.Object({
  batchId: Type.String({ minLength: 1, maxLength: 64, description: '批次' }),
  format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('txt')], { description: '格式' })),
  utcOffsetMinutes: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
});
export type ExportCardQuery = Static<typeof ExportCardQuery>;

export const Order = Type.Object({
  orderNo: Type.String(),
  domainId: Id,
  address: Type.String(),
  phone: Type.String(),
  amount: Type.Integer(),
  payMethod: Type.String(),
  status: OrderStatus,
  createdAt: Time,
  paidAt: NullableTime,
  deliveredAt: Type.Optional(NullableTime),
  /** the payment's number at the gateway, when paid through one */
  tradeNo: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** why a paid order could not be delivered (the address was taken meanwhile), in Chinese */
  failure: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  expiresAt: Type.Optional(NullableTime),
});
export type Order = Static<typeof Order>;
export const OrderQuery = Type.Composite([
  PageQuery,
  Type.Object({
    status: Type.Optional(OrderStatus),
    phone: Type.Optional(Type.String({ maxLength: 21, description: '手机号' })),
  }),
]);
export type OrderQuery = Static<typeof OrderQuery>;
export const OrderNoBody = Type.Object({
  orderNo: Type.String({ minLength: 1, maxLength: 64, description: '订单号' }),
});

/** Payment settings (administrators). The EPay key is write-only: reads say only whether it is set. */
export const PaySettings = Type.Object({
  manualEnabled: Type.Boolean({ description: '人工确认收款' }),
  /** shown to the buyer after ordering with the manual method (how to pay, whom to contact) */
  manualInstructions: Type.String({ maxLength: 1000, description: '人工付款说明' }),
  epayEnabled: Type.Boolean({ description: '易支付' }),
  epayGatewayUrl: Type.String({ maxLength: 300, description: '易支付网关地址' }),
  epayMerchantId: Type.String({ maxLength: 64, description: '易支付商户号' }),
  epayKeySet: Type.Boolean(),
  /** EPay `type` values offered to buyers, e.g. alipay, wxpay, qqpay */
  epayTypes: Type.Array(Type.String({ pattern: '^[a-z0-9_]{1,20}$' }), {
    maxItems: 10,
    description: '支付方式',
  }),
  /** public address of this site for notify_url and return_url; empty = taken from the request */
  siteUrl: Type.String({ maxLength: 300, description: '站点地址' }),
  /** minutes an unpaid order holds its address */
  orderTimeoutMinutes: Type.Integer({ minimum: 5, maximum: 1440, description: '订单有效分钟数' }),
});
export type PaySettings = Static<typeof PaySettings>;
export const UpdatePaySettingsBody = Type.Partial(
  Type.Composite([
    Type.Omit(PaySettings, ['epayKeySet']),
    Type.Object({ epayKey: Type.String({ maxLength: 200, description: '易支付密钥' }) }),
  ]),
);
export type UpdatePaySettingsBody = Static<typeof UpdatePaySettingsBody>;
