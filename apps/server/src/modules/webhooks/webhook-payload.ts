import { createHmac } from 'node:crypto';
import type { OrderNotice } from '@youju/contract';
import type { LeasedWebhookDelivery } from '../../db/repositories/webhook-repo.js';

/** A webhook's `text` is cut at this many bytes of UTF-8 (API contract: 4 KB). */
export const TEXT_LIMIT_BYTES = 4096;

/** The body of a `mail.received` delivery (API.md, "Webhooks and Telegram"). */
export interface MailReceivedPayload {
  event: string;
  id: number;
  address: string;
  from: string;
  subject: string;
  receivedAt: string;
  code: string | null;
  folder: 'inbox' | 'junk';
  text: string;
}

/**
 * The folder a message is in, for the payload: `messages.spam` is kept equal to `folder = 'junk'`
 * (migration 050; `messageRowOf` and the moves between Inbox and Junk set both).
 */
export function folderOf(message: { spam: number }): 'inbox' | 'junk' {
  return message.spam === 1 ? 'junk' : 'inbox';
}

/** `text` cut to `limit` bytes of UTF-8 without splitting a character. */
export function cutUtf8(text: string, limit = TEXT_LIMIT_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  let end = limit;
  // Back up to the start of a character (continuation bytes are 10xxxxxx).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

export function mailPayload(
  event: string,
  message: NonNullable<LeasedWebhookDelivery['message']>,
): MailReceivedPayload {
  return {
    event,
    id: message.id,
    address: message.address,
    from: message.fromAddress,
    subject: message.subject,
    receivedAt: new Date(message.receivedAt).toISOString(),
    code: message.code,
    folder: folderOf(message),
    text: cutUtf8(message.text ?? ''),
  };
}

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`: X-Youju-Signature. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The headers of one delivery attempt; the timestamp is the attempt's, in epoch seconds. */
export function signedHeaders(
  secret: string,
  event: string,
  deliveryKey: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'x-youju-event': event,
    'x-youju-delivery': deliveryKey,
    'x-youju-timestamp': String(timestamp),
    'x-youju-signature': signature(secret, timestamp, body),
  };
}

/** The Telegram message about new mail: plain text (no parse mode, so nothing needs escaping). */
export function telegramText(
  message: NonNullable<LeasedWebhookDelivery['message']>,
  publicUrl: string,
): string {
  const sender = message.fromName ? `${message.fromName} <${message.fromAddress}>` : message.fromAddress;
  const lines = [
    `📬 ${message.address} 收到新邮件${folderOf(message) === 'junk' ? '（垃圾邮件）' : ''}`,
    `发件人：${sender}`,
    `主题：${message.subject || '（无主题）'}`,
  ];
  if (message.code) lines.push(`验证码：${message.code}`);
  lines.push(`查看：${publicUrl}/user/inbox?id=${message.id}`);
  // Telegram takes at most 4096 characters.
  return lines.join('\n').slice(0, 4000);
}

/** ¥12.34 from fen. */
function yuan(fen: number): string {
  return `¥${(fen / 100).toFixed(2)}`;
}

/** The Telegram message of a queued event with a stored body (order.created). */
export function eventTelegramText(payload: string, publicUrl: string): string {
  let notice: Partial<OrderNotice>;
  try {
    notice = JSON.parse(payload) as Partial<OrderNotice>;
  } catch {
    notice = {};
  }
  if (notice.event !== 'order.created') return `Youju 事件：${String(notice.event ?? '未知')}`;
  const lines = [
    `🛒 新订单 ${notice.orderNo ?? ''}`,
    `邮箱：${notice.address ?? ''}`,
    `金额：${yuan(Number(notice.amount ?? 0))}（${notice.payMethod === 'manual' ? '人工确认收款' : (notice.payMethod ?? '')}）`,
    `买家手机：${notice.phone ?? ''}`,
    `查看：${publicUrl}/user/card?tab=orders`,
  ];
  return lines.join('\n').slice(0, 4000);
}
