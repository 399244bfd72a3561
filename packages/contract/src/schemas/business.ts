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
});
export type EmailAccount = Static<typeof EmailAccount>;

export const SearchAccountQuery = Type.Composite([
  PageQuery,
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
export const BatchEditEmailAccountBody = Type.Object({
  ids: Ids,
  enabled: Type.Optional(Type.Boolean()),
  quotaBytes: Type.Optional(QuotaBytes),
  expiresAt: Type.Optional(Type.Union([TimeInput, Type.Null()])),
});

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
});
export type Card = Static<typeof Card>;
export const CardQuery = Type.Composite([PageQuery, Type.Object({ status: Type.Optional(CardStatus) })]);
export const CreateCardBody = Type.Object({
  count: Type.Integer({ minimum: 1, maximum: 1000, description: '数量' }),
  domainId: Type.Optional(Id),
  validDays: Type.Integer({ minimum: 1, maximum: 36500, description: '有效天数' }),
  quotaBytes: Type.Optional(QuotaBytes),
  note: Type.Optional(Type.String({ maxLength: 200 })),
});
export const CreateCardData = Type.Object({ codes: Type.Array(Type.String()) });
export const EditCardBody = Type.Object({
  id: Id,
  status: Type.Optional(Type.Union([Type.Literal('unused'), Type.Literal('disabled')])),
  note: Type.Optional(Type.String({ maxLength: 200 })),
});
export const DelCardBody = Type.Object({ ids: Ids });

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
});
export type Order = Static<typeof Order>;
export const OrderQuery = Type.Composite([
  PageQuery,
  Type.Object({ status: Type.Optional(OrderStatus), phone: Type.Optional(Type.String({ maxLength: 21 })) }),
]);
export const OrderNoBody = Type.Object({
  orderNo: Type.String({ minLength: 1, maxLength: 64, description: '订单号' }),
});

export const ApiKeyData = Type.Object({ key: Type.String() });

export const RadarDimension = Type.Object({ name: Type.String(), value: Type.Number(), max: Type.Number() });
export const DashboardData = Type.Object({
  totals: Type.Record(Type.String(), Type.Number()),
  daily: Type.Array(Type.Object({ date: Type.String(), received: Type.Integer(), sent: Type.Integer() })),
  radar: Type.Array(RadarDimension),
});
