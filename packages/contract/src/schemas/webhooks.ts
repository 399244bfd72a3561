import { type Static, Type } from '@sinclair/typebox';
import { EmailAddress, Id, NullableTime, Time } from './common.js';

/** The events a webhook can subscribe to. */
export const WebhookEvent = Type.Union([Type.Literal('mail.received'), Type.Literal('order.created')], {
  description: '事件',
});
export type WebhookEvent = Static<typeof WebhookEvent>;

/** At most this many webhooks per account. */
export const MAX_WEBHOOKS_PER_OWNER = 10;

export const WebhookUrl = Type.String({
  minLength: 8,
  maxLength: 2000,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description: '回调地址（http:// 或 https://）',
});
/** A secret a person chose: long enough that it cannot be guessed. */
export const WebhookSecret = Type.String({ minLength: 16, maxLength: 200, description: '签名密钥' });
const WebhookEvents = Type.Array(WebhookEvent, { minItems: 1, maxItems: 10, description: '事件' });
const OptionalAddress = Type.Union([EmailAddress, Type.Null()]);

export const NewWebhook = Type.Object({
  url: WebhookUrl,
  events: Type.Optional(WebhookEvents),
  address: Type.Optional(OptionalAddress),
  secret: Type.Optional(WebhookSecret),
});
export type NewWebhook = Static<typeof NewWebhook>;

export const EditWebhook = Type.Object({
  id: Id,
  url: Type.Optional(WebhookUrl),
  events: Type.Optional(WebhookEvents),
  address: Type.Optional(OptionalAddress),
  enabled: Type.Optional(Type.Boolean()),
});
export type EditWebhook = Static<typeof EditWebhook>;

/** What the last finished delivery of a webhook came to, or null before the first. */
export const WebhookLastStatus = Type.Union([
  Type.Object({
    status: Type.Union([Type.Literal('delivered'), Type.Literal('failed')]),
    responseCode: Type.Union([Type.Integer(), Type.Null()]),
    at: Time,
  }),
  Type.Null(),
]);

export const Webhook = Type.Object({
  id: Id,
  url: Type.String(),
  events: Type.Array(WebhookEvent),
  address: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  createdAt: Time,
  lastStatus: WebhookLastStatus,
});
export type Webhook = Static<typeof Webhook>;
export const WebhookList = Type.Array(Webhook);

/** addWebhook's answer: the only time the secret is shown. */
export const CreatedWebhook = Type.Composite([Webhook, Type.Object({ secret: Type.String() })]);
export type CreatedWebhook = Static<typeof CreatedWebhook>;

export const WebhookTestResult = Type.Object({
  status: Type.Union([Type.Literal('delivered'), Type.Literal('failed')]),
  durationMs: Type.Integer(),
  responseCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookTestResult = Static<typeof WebhookTestResult>;

export const WebhookDeliveriesQuery = Type.Object({
  id: Id,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '页码' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: '每页条数' })),
});
export type WebhookDeliveriesQuery = Static<typeof WebhookDeliveriesQuery>;

export const WebhookDelivery = Type.Object({
  id: Id,
  event: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  responseCode: Type.Union([Type.Integer(), Type.Null()]),
  /** every attempt's HTTP status in order; 0 where none answered (timeout, refused connection) */
  responseCodes: Type.Array(Type.Integer()),
  lastError: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Time,
  nextAttemptAt: NullableTime,
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const TelegramSettingsInput = Type.Object({
  botToken: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$', description: '机器人令牌' }),
  ),
  chatId: Type.String({ pattern: '^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$', description: '聊天编号' }),
  enabled: Type.Boolean(),
});
export type TelegramSettingsInput = Static<typeof TelegramSettingsInput>;

/** The caller's Telegram settings; the bot token is never shown, only whether one is set. */
export const TelegramSettings = Type.Object({
  chatId: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  botTokenSet: Type.Boolean(),
  /** the last notification sent (or tried), as on webhooks */
  lastStatus: WebhookLastStatus,
});
export type TelegramSettings = Static<typeof TelegramSettings>;

/**
 * A new store order on one of the caller's domains: the SSE event `order` on `GET user/events` and
 * the body of the webhook event `order.created`. No password, no secret; the buyer's phone masked.
 */
export const OrderNotice = Type.Object({
  event: Type.Literal('order.created'),
  orderNo: Type.String(),
  domainId: Id,
  domainName: Type.String(),
  address: Type.String(),
  /** in fen (分) */
  amount: Type.Integer(),
  payMethod: Type.String(),
  /** the buyer's phone with its middle digits hidden, e.g. 138****5678 */
  phone: Type.String(),
  status: Type.String(),
  createdAt: Time,
});
export type OrderNotice = Static<typeof OrderNotice>;
