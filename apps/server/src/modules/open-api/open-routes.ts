import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  API_KEY_HEADER,
  CreatedAddress,
  DeletedCount,
  IdQuery,
  IdsBody,
  MailDetail,
  MailItem,
  OpenCreateEmailBody,
  OpenInboxQuery,
  OpenWaitQuery,
  Page,
} from '@youju/contract';
import type { onRequestAsyncHookHandler } from 'fastify';
import { ApiError } from '../../lib/api-error.js';
import { Envelope, ok } from '../../lib/envelope.js';
import { createStreamSlots } from '../../lib/stream-slots.js';
import { caller } from '../../plugins/authentication.js';

/** Calls one key may make per minute (long polls included). */
export const OPEN_API_CALLS_PER_MINUTE = 120;

const TAG = '开放接口';
/** waitEmail long polls held open at once (each holds a socket for up to a minute) */
const WAIT_LIMITS = { perCredential: 20, perSource: 50, total: 2000 };
const security = [{ apiKey: [] }];

/**
 * The open API under /api/open: the key in `X-API-Key` acts as its owner, with
 * the same envelope and the same rules as the owner's own calls. Rate-limited per key.
 */
export const openRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { apiKeys, mail, openApi, rateLimits } = app.services;
  const perKey = rateLimits('open-api-keys', 60_000);
  const waits = createStreamSlots(WAIT_LIMITS);
  // A shutdown ends the long polls as their timeout would (408: ask again), rather than holding
  // the HTTP server open for up to a minute.
  const shuttingDown = new AbortController();
  app.addHook('preClose', async () => shuttingDown.abort());
  const headerName = API_KEY_HEADER.toLowerCase();

  const requireApiKey: onRequestAsyncHookHandler = async (request) => {
    const header = request.headers[headerName];
    const key = typeof header === 'string' ? header.trim() : '';
    if (!key)
      throw ApiError.forbidden(`缺少 API 密钥：请在请求头 ${API_KEY_HEADER} 中提供（在“接口”页面获取）`);
    const auth = await apiKeys.authenticate(key);
    if (!auth) throw ApiError.forbidden('API 密钥无效或已被重置，请在“接口”页面获取新的密钥');
    if ((await perKey.hit(String(auth.keyId))) > OPEN_API_CALLS_PER_MINUTE) {
      throw ApiError.tooMany(
        `调用过于频繁：每个密钥每分钟最多 ${OPEN_API_CALLS_PER_MINUTE} 次，请稍后再试`,
        60,
      );
    }
    request.auth = auth;
  };

  app.post(
    '/createEmail',
    {
      onRequest: requireApiKey,
      schema: {
        tags: [TAG],
        summary: '创建邮箱地址',
        description:
          '在指定域名（默认：站点默认域名或账号的第一个域名）上创建地址；不传 localPart 时随机生成。',
        security,
        body: OpenCreateEmailBody,
        response: { 200: Envelope(CreatedAddress) },
      },
    },
    async (request) => ok(await openApi.createEmail(caller(request), request.body)),
  );
  app.get(
    '/getInbox',
    {
      onRequest: requireApiKey,
      schema: {
        tags: [TAG],
        summary: '列出地址收到的邮件',
        description: '按收信时间倒序分页。',
        security,
        querystring: OpenInboxQuery,
        response: { 200: Envelope(Page(MailItem)) },
      },
    },
    async (request) => {
      const auth = caller(request);
      await openApi.ownedMailbox(auth, request.query.address);
      return ok(await mail.inbox(auth, request.query));
    },
  );
  app.get(
    '/getEmail',
    {
      onRequest: requireApiKey,
      schema: {
        tags: [TAG],
        summary: '读取一封邮件',
        description: '返回正文（HTML 已净化）、收件人和附件列表。',
        security,
        querystring: IdQuery,
        response: { 200: Envelope(MailDetail) },
      },
    },
    async (request) => ok(await mail.get(caller(request), request.query.id)),
  );
  app.get(
    '/waitEmail',
    {
      onRequest: requireApiKey,
      schema: {
        tags: [TAG],
        summary: '等待下一封邮件',
        description:
          '长轮询：最多等待 timeout 秒（1–60，默认 30），新邮件一到立即返回；传 after（邮件编号）则返回比它新的第一封。超时返回 error 408。',
        security,
        querystring: OpenWaitQuery,
        response: { 200: Envelope(MailDetail) },
      },
    },
    async (request, reply) => {
      const auth = caller(request);
      const slot = waits.acquire(`account:${auth.accountId}`, request.ip);
      if ('refused' in slot) {
        throw ApiError.tooMany('同时等待新邮件的请求过多，请等前面的请求返回后再试', 5);
      }
      // The wait ends early when the client hangs up.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const { address, timeout, after } = request.query;
      try {
        return ok(
          await openApi.waitEmail(
            auth,
            { address, timeoutSeconds: timeout ?? 30, ...(after === undefined ? {} : { after }) },
            AbortSignal.any([gone.signal, shuttingDown.signal]),
          ),
        );
      } finally {
        slot.release();
      }
    },
  );
  app.post(
    '/delEmail',
    {
      onRequest: requireApiKey,
      schema: {
        tags: [TAG],
        summary: '删除邮件',
        description: '按编号删除；返回实际删除的数量。',
        security,
        body: IdsBody,
        response: { 200: Envelope(DeletedCount) },
      },
    },
    async (request) => ok({ deleted: await mail.remove(caller(request), request.body.ids) }),
  );
};
