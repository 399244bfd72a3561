import { randomBytes } from 'node:crypto';
import {
  type CreatedWebhook,
  type EditWebhook,
  MAX_WEBHOOKS_PER_OWNER,
  type NewWebhook,
  type PageOf,
  type TelegramSettings,
  type TelegramSettingsInput,
  type Webhook,
  type WebhookDeliveriesQuery,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookTestResult,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import type { WebhookConfig } from '../../config.js';
import type { Engine } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import { findMailboxByAddress } from '../../db/repositories/mailbox-repo.js';
import {
  countWebhooksOfOwner,
  deleteWebhookOfOwner,
  findTelegramOfOwner,
  findWebhookOfOwner,
  insertWebhook,
  insertWebhookDelivery,
  listWebhooksOfOwner,
  pageDeliveriesOfWebhook,
  recordWebhookOutcome,
  updateWebhookOfOwner,
} from '../../db/repositories/webhook-repo.js';
import type { Database, WebhookDeliveryRow, WebhookRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { pageOf } from '../../lib/paging.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import { toIso } from '../../lib/time.js';
import type { AuthContext } from '../sessions/index.js';
import { PrivateTargetError, refusePrivateUrl, safePost } from './safe-post.js';
import { signedHeaders } from './webhook-payload.js';
import { sendTelegram, telegramError } from './webhook-worker.js';

/** testWebhook calls per account and minute: each one makes this server send a request. */
const TESTS_PER_MINUTE = 10;
const TEST_EVENT = 'webhook.test';

function view(row: WebhookRow): Webhook {
  return {
    id: Number(row.id),
    url: row.url ?? '',
    events: JSON.parse(row.events_json) as WebhookEvent[],
    address: row.address,
    enabled: row.enabled === 1,
    createdAt: toIso(Number(row.created_at)),
    lastStatus:
      row.last_status && row.last_attempt_at !== null
        ? {
            status: row.last_status,
            responseCode: row.last_response_code,
            at: toIso(Number(row.last_attempt_at)),
          }
        : null,
  };
}

function deliveryView(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: Number(row.id),
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    responseCode: row.response_code,
    responseCodes: row.response_codes ? row.response_codes.split(',').map(Number) : [],
    lastError: row.last_error,
    durationMs: row.duration_ms,
    createdAt: toIso(Number(row.created_at)),
    nextAttemptAt: row.status === 'pending' ? toIso(Number(row.next_attempt_at)) : null,
  };
}

/** Webhooks belong to system accounts (users and administrators); each sees and changes its own. */
function ownerOf(auth: AuthContext): number {
  if (auth.accountId === null) throw ApiError.forbidden('只有系统账号可以设置 Webhook 和 Telegram 通知');
  return auth.accountId;
}

/** A URL a webhook may call: http or https, no spaces; the host is checked again on every delivery. */
function checkUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw ApiError.badRequest('回调地址无效，请填写完整的 http:// 或 https:// 地址');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw ApiError.badRequest('回调地址只支持 http:// 和 https://');
  }
  if (!url.hostname) throw ApiError.badRequest('回调地址缺少主机名');
  return url.toString();
}

/**
 * Webhooks and Telegram: the owner's targets, the delivery log, the test call and the Telegram
 * settings. Deliveries are queued by `enqueueMailDeliveries` (webhook-enqueue.ts) with the message
 * and sent by the worker (webhook-worker.ts).
 */
export function createWebhookService(deps: {
  db: Kysely<Database>;
  engine: Engine;
  config: WebhookConfig;
  rateLimits: RateLimits;
}) {
  const { db, engine, config } = deps;
  const tests = deps.rateLimits('webhook-test', 60_000);
  // setTelegram sends a message each time it enables: the same budget, kept apart.
  const telegramTests = deps.rateLimits('telegram-test', 60_000);

  async function refusePrivate(url: string): Promise<void> {
    try {
      await refusePrivateUrl(url, config.allowPrivate);
    } catch (error) {
      if (error instanceof PrivateTargetError) throw ApiError.badRequest(error.message);
      throw error;
    }
  }

  /** The address filter: null (every address), or one of the owner's own mailboxes. */
  async function checkAddress(ownerId: number, address: string | null | undefined): Promise<string | null> {
    if (address === null || address === undefined || address === '') return null;
    const normalized = address.trim().toLowerCase();
    const mailbox = await findMailboxByAddress(db, normalized);
    if (!mailbox || mailbox.owner_id !== ownerId) {
      throw ApiError.badRequest(`邮箱地址 ${normalized} 不是你的邮箱，请填写你名下的地址或留空（全部地址）`);
    }
    return normalized;
  }

  async function owned(auth: AuthContext, id: number): Promise<WebhookRow> {
    const row = await findWebhookOfOwner(db, id, ownerOf(auth), 'http');
    // Someone else's webhook answers as one that does not exist: ids tell nothing.
    if (!row) throw ApiError.notFound('Webhook 不存在');
    return row;
  }

  return {
    async list(auth: AuthContext): Promise<Webhook[]> {
      return (await listWebhooksOfOwner(db, ownerOf(auth), 'http')).map(view);
    },

    async add(auth: AuthContext, input: NewWebhook): Promise<CreatedWebhook> {
      const ownerId = ownerOf(auth);
      const url = checkUrl(input.url);
      await refusePrivate(url);
      const address = await checkAddress(ownerId, input.address);
      const secret = input.secret ?? `whsec_${randomBytes(24).toString('hex')}`;
      const events = [...new Set(input.events ?? ['mail.received'])];
      const id = await db.transaction().execute(async (trx) => {
        // The count and the insert as one step, so parallel calls cannot pass the cap together.
        await lockForTransaction(trx, engine, `webhooks:${ownerId}`);
        if ((await countWebhooksOfOwner(trx, ownerId, 'http')) >= MAX_WEBHOOKS_PER_OWNER) {
          throw ApiError.conflict(`每个账号最多 ${MAX_WEBHOOKS_PER_OWNER} 个 Webhook，请先删除不用的`);
        }
        return insertWebhook(trx, {
          owner_id: ownerId,
          kind: 'http',
          url,
          chat_id: null,
          secret,
          events_json: JSON.stringify(events),
          address,
          enabled: 1,
          created_at: Date.now(),
          last_status: null,
          last_response_code: null,
          last_attempt_at: null,
        });
      });
      const row = await owned(auth, id);
      return { ...view(row), secret };
    },

    async edit(auth: AuthContext, input: EditWebhook): Promise<Webhook> {
      const ownerId = ownerOf(auth);
      await owned(auth, input.id);
      const changes: Partial<WebhookRow> = {};
      if (input.url !== undefined) {
        changes.url = checkUrl(input.url);
        await refusePrivate(changes.url);
      }
      if (input.address !== undefined) changes.address = await checkAddress(ownerId, input.address);
      if (input.events !== undefined) changes.events_json = JSON.stringify([...new Set(input.events)]);
      if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0;
      if (Object.keys(changes).length > 0) await updateWebhookOfOwner(db, input.id, ownerId, changes);
      return view(await owned(auth, input.id));
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      if (!(await deleteWebhookOfOwner(db, id, ownerOf(auth)))) throw ApiError.notFound('Webhook 不存在');
    },

    /** Sends a signed `webhook.test` event now and says how it went; recorded in the log too. */
    async test(auth: AuthContext, id: number): Promise<WebhookTestResult> {
      const row = await owned(auth, id);
      if ((await tests.hit(String(row.owner_id))) > TESTS_PER_MINUTE) {
        throw ApiError.tooMany(`测试太频繁，每分钟最多 ${TESTS_PER_MINUTE} 次，请稍后再试`, 60);
      }
      const now = Date.now();
      const body = JSON.stringify({
        event: TEST_EVENT,
        id: 0,
        address: row.address ?? 'test@example.com',
        from: 'sender@example.com',
        subject: '有据邮箱 Webhook 测试',
        receivedAt: new Date(now).toISOString(),
        code: '123456',
        folder: 'inbox',
        text: '这是一条测试消息：收到它说明你的接收地址和签名校验都能正常工作。',
      });
      const key = `test_${randomBytes(12).toString('hex')}`;
      const outcome = await safePost(
        row.url ?? '',
        body,
        signedHeaders(row.secret, TEST_EVENT, key, body, now),
        {
          allowPrivate: config.allowPrivate,
          timeoutMs: config.timeoutMs,
        },
      );
      const responseCode = outcome.kind === 'response' ? outcome.statusCode : null;
      const delivered = responseCode !== null && responseCode >= 200 && responseCode < 300;
      const error = delivered ? null : outcome.kind === 'error' ? outcome.error : `HTTP ${responseCode}`;
      const done = Date.now();
      await insertWebhookDelivery(db, {
        webhook_id: row.id,
        event: TEST_EVENT,
        message_id: null,
        delivery_key: key,
        status: delivered ? 'delivered' : 'failed',
        attempts: 1,
        next_attempt_at: now,
        lease_owner: null,
        lease_until: null,
        response_code: responseCode,
        response_codes: String(responseCode ?? 0),
        last_error: error,
        duration_ms: outcome.durationMs,
        created_at: now,
        updated_at: done,
        delivered_at: delivered ? done : null,
      });
      await recordWebhookOutcome(db, row.id, {
        status: delivered ? 'delivered' : 'failed',
        responseCode,
        at: done,
      });
      return {
        status: delivered ? 'delivered' : 'failed',
        durationMs: outcome.durationMs,
        responseCode,
        error,
      };
    },

    async deliveries(auth: AuthContext, query: WebhookDeliveriesQuery): Promise<PageOf<WebhookDelivery>> {
      const row = await owned(auth, query.id);
      const page = await pageOf(query, (limit, offset) =>
        pageDeliveriesOfWebhook(db, row.id, { limit, offset }),
      );
      return { ...page, list: page.list.map(deliveryView) };
    },

    async telegram(auth: AuthContext): Promise<TelegramSettings> {
      const row = await findTelegramOfOwner(db, ownerOf(auth));
      return row
        ? {
            chatId: row.chat_id,
            enabled: row.enabled === 1,
            botTokenSet: true,
            lastStatus: view(row).lastStatus,
          }
        : { chatId: null, enabled: false, botTokenSet: false, lastStatus: null };
    },

    /**
     * Saves the bot token and chat: when enabled, only after a test message went through (a wrong
     * token or chat is told now, not at the first mail). The token is never shown or logged.
     */
    async setTelegram(auth: AuthContext, input: TelegramSettingsInput): Promise<void> {
      const ownerId = ownerOf(auth);
      const existing = await findTelegramOfOwner(db, ownerId);
      const botToken = input.botToken ?? existing?.secret;
      if (!botToken) throw ApiError.badRequest('请填写机器人令牌（botToken），格式如 123456789:AA…');
      if (input.enabled) {
        if ((await telegramTests.hit(String(ownerId))) > TESTS_PER_MINUTE) {
          throw ApiError.tooMany(`保存太频繁，每分钟最多 ${TESTS_PER_MINUTE} 次，请稍后再试`, 60);
        }
        const outcome = await sendTelegram(
          config,
          botToken,
          input.chatId,
          '✅ 有据邮箱：Telegram 通知已设置成功，新邮件会发到这里。',
        );
        if (outcome.kind === 'error') {
          throw ApiError.badRequest(`无法连接 Telegram，测试消息没有发出：${outcome.error}`);
        }
        if (outcome.statusCode < 200 || outcome.statusCode >= 300) {
          throw ApiError.badRequest(
            `测试消息没有发出（${telegramError(outcome.body, outcome.statusCode)}），请检查机器人令牌和聊天编号，并先给机器人发一条消息`,
          );
        }
      }
      await db.transaction().execute(async (trx) => {
        await lockForTransaction(trx, engine, `telegram:${ownerId}`);
        const current = await findTelegramOfOwner(trx, ownerId);
        const changes = { secret: botToken, chat_id: input.chatId, enabled: input.enabled ? 1 : 0 };
        if (current) await updateWebhookOfOwner(trx, current.id, ownerId, changes);
        else
          await insertWebhook(trx, {
            owner_id: ownerId,
            kind: 'telegram',
            url: null,
            events_json: JSON.stringify(['mail.received']),
            address: null,
            created_at: Date.now(),
            last_status: null,
            last_response_code: null,
            last_attempt_at: null,
            ...changes,
          });
      });
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
