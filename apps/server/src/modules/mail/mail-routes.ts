import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AddressList,
  CreatedAddress,
  CreateEmailBody,
  DeletedCount,
  DeleteRangeBody,
  IdParams,
  IdQuery,
  IdsBody,
  InboxQuery,
  MailDetail,
  MailItem,
  MarkAllReadBody,
  Page,
  SetReadBody,
  StarEmailBody,
  UnreadData,
  UpdatedCount,
  UpdateEmailBody,
} from '@youju/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/api-error.js';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { createStreamSlots } from '../../lib/stream-slots.js';
import { caller, requireRole } from '../../plugins/authentication.js';
import { contentDisposition } from '../../protocols/mime/content-disposition.js';
import type { AuthContext } from '../sessions/index.js';
import { isInlineSafe } from './inline-types.js';
import { extractAttachment } from './mail-parser.js';

const HEARTBEAT_MS = 15_000;
/** what a live stream ended by a shutdown asks the browser to wait before reconnecting */
const RECONNECT_AFTER_SHUTDOWN_MS = 5_000;
/** Live-inbox streams: a person has a few tabs open, an office shares one address. */
const EVENT_STREAM_LIMITS = { perCredential: 10, perSource: 100, total: 5000 };

/**
 * EventSource and <img> cannot send an Authorization header, so the live inbox and the downloads
 * also take the token as `?token=` (only these routes).
 */
async function tokenFromQuery(request: FastifyRequest): Promise<void> {
  const token = (request.query as { token?: unknown } | undefined)?.token;
  if (!request.headers.authorization && typeof token === 'string' && token.length > 0) {
    request.headers.authorization = `Bearer ${token}`;
  }
}

function sees(auth: AuthContext, target: { mailboxId: number; ownerId: number }): boolean {
  if (auth.role === 'admin') return true;
  if (auth.role === 'mailbox') return auth.mailboxId === target.mailboxId;
  return auth.accountId === target.ownerId;
}

/** Mail reading and temporary addresses under /api/user. */
export const mailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { mail, mailEvents, accountEvents } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');
  const reader = requireRole(app, 'admin', 'user', 'mailbox');
  const readerWithQueryToken = [tokenFromQuery, reader];

  app.post(
    '/createEmail',
    { onRequest: systemUser, schema: { body: CreateEmailBody, response: { 200: Envelope(CreatedAddress) } } },
    async (request) => ok(await mail.createAddress(caller(request), request.body)),
  );
  app.get(
    '/emailList',
    { onRequest: systemUser, schema: { response: { 200: Envelope(AddressList) } } },
    async (request) => ok(await mail.addresses(caller(request))),
  );
  app.delete(
    '/deleteEmail/:id',
    { onRequest: systemUser, schema: { params: IdParams, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await mail.deleteAddress(caller(request), request.params.id);
      return ok();
    },
  );

  app.get(
    '/getInbox',
    { onRequest: reader, schema: { querystring: InboxQuery, response: { 200: Envelope(Page(MailItem)) } } },
    async (request) => ok(await mail.inbox(caller(request), request.query)),
  );
  app.get(
    '/getEmail',
    { onRequest: reader, schema: { querystring: IdQuery, response: { 200: Envelope(MailDetail) } } },
    async (request) => ok(await mail.get(caller(request), request.query.id)),
  );
  app.get(
    '/getUnreadEmail',
    { onRequest: reader, schema: { response: { 200: Envelope(UnreadData) } } },
    async (request) => ok(await mail.unread(caller(request))),
  );
  app.post(
    '/setReadEmail',
    { onRequest: reader, schema: { body: SetReadBody, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await mail.setRead(caller(request), request.body.ids, request.body.read ?? true);
      return ok();
    },
  );
  app.post(
    '/updateEmail',
    { onRequest: reader, schema: { body: UpdateEmailBody, response: { 200: Envelope(MailItem) } } },
    async (request) => ok(await mail.update(caller(request), request.body)),
  );
  app.post(
    '/starEmail',
    { onRequest: reader, schema: { body: StarEmailBody, response: { 200: Envelope(UpdatedCount) } } },
    async (request) =>
      ok({ updated: await mail.star(caller(request), request.body.ids, request.body.starred) }),
  );
  app.post(
    '/markAllRead',
    { onRequest: reader, schema: { body: MarkAllReadBody, response: { 200: Envelope(UpdatedCount) } } },
    async (request) => ok({ updated: await mail.markAllRead(caller(request), request.body.address) }),
  );
  app.post(
    '/delEmail',
    { onRequest: reader, schema: { body: IdsBody, response: { 200: Envelope(DeletedCount) } } },
    async (request) => ok({ deleted: await mail.remove(caller(request), request.body.ids) }),
  );
  app.post(
    '/deleteEmailsInTimeRange',
    { onRequest: reader, schema: { body: DeleteRangeBody, response: { 200: Envelope(DeletedCount) } } },
    async (request) => ok({ deleted: await mail.removeRange(caller(request), request.body) }),
  );

  const downloadQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });

  app.get(
    '/raw/:id',
    { onRequest: readerWithQueryToken, schema: { params: IdParams, querystring: downloadQuery } },
    async (request, reply) => {
      const raw = await mail.raw(caller(request), request.params.id);
      reply
        .type('message/rfc822')
        .header('content-length', String(raw.size))
        .header('content-disposition', contentDisposition('attachment', `${request.params.id}.eml`))
        .header('content-security-policy', "sandbox; default-src 'none'");
      return reply.send(raw.stream());
    },
  );

  app.get(
    '/attachment/:id',
    {
      onRequest: readerWithQueryToken,
      schema: {
        params: Type.Object({ id: Type.String({ pattern: '^[0-9]+-[0-9]+$', maxLength: 40 }) }),
        querystring: downloadQuery,
      },
    },
    async (request, reply) => {
      const { meta, raw } = await mail.attachment(caller(request), request.params.id);
      const inline = isInlineSafe(meta.contentType);
      const body = new PassThrough();
      reply
        .type(inline ? meta.contentType : meta.contentType || 'application/octet-stream')
        .header('content-length', String(meta.size))
        .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', meta.filename))
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('cache-control', 'private, max-age=3600');
      // Re-parse the raw message and stream just this attachment (see mail-parser.ts).
      extractAttachment(raw(), meta.index, (content) => pipeline(content, body)).then(
        (found) => {
          if (!found) body.destroy(new Error('attachment vanished'));
        },
        (error: unknown) => body.destroy(error as Error),
      );
      return reply.send(body);
    },
  );

  // ---- server-sent events: the live inbox ----
  const clients = new Set<{ auth: AuthContext; reply: FastifyReply }>();
  const slots = createStreamSlots(EVENT_STREAM_LIMITS);
  const unsubscribe = mailEvents.subscribe((ids) => {
    if (clients.size === 0) return;
    mail.itemsForEvents(ids).then(
      (items) => {
        for (const client of clients) {
          for (const entry of items) {
            if (sees(client.auth, entry)) {
              client.reply.raw.write(`event: mail\ndata: ${JSON.stringify(entry.item)}\n\n`);
            }
          }
        }
      },
      (error: unknown) => app.log.warn({ err: error }, 'live inbox: loading new mail failed'),
    );
  });
  // Notices for one system account (a new order on its domain): only that account's streams, never
  // another user's nor an administrator's who is not the owner, nor a mailbox session.
  const unsubscribeAccount = accountEvents.subscribe((event) => {
    for (const client of clients) {
      if (client.auth.role === 'mailbox' || client.auth.accountId !== event.accountId) continue;
      client.reply.raw.write(`event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`);
    }
  });
  const heartbeat = setInterval(() => {
    for (const client of clients) client.reply.raw.write(': ping\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    unsubscribe();
    unsubscribeAccount();
    // The server is shutting down (or restarting): the stream ends with a reconnection time
    // (WHATWG HTML "Server-sent events", the retry field) long enough for a restart, so the
    // browser comes back on its own instead of at once into a closed port.
    for (const client of clients)
      client.reply.raw.end(`retry: ${RECONNECT_AFTER_SHUTDOWN_MS}\n: shutting down\n\n`);
    clients.clear();
  });

  app.get(
    '/events',
    { onRequest: readerWithQueryToken, schema: { querystring: downloadQuery } },
    async (request, reply) => {
      const auth = caller(request);
      const slot = slots.acquire(`session:${auth.sessionId}`, request.ip);
      if ('refused' in slot) {
        throw ApiError.tooMany(
          slot.refused === 'total'
            ? '服务器实时连接已满，请稍后刷新页面'
            : '打开的实时收信连接过多，请关闭多余的页面或标签后再试',
          30,
        );
      }
      const client = { auth, reply };
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      });
      reply.raw.write('retry: 3000\n: connected\n\n');
      clients.add(client);
      // The response closes when the client goes (or the server closes it): the slot is free again.
      reply.raw.on('close', () => {
        clients.delete(client);
        slot.release();
      });
    },
  );
};
