import { parse as parseQueryString } from 'node:querystring';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BuyEmailBody,
  BuyEmailData,
  CheckAddressData,
  CheckAddressQuery,
  Order,
  OrderNoBody,
  OrderQuery,
  Page,
  PayMethodList,
  PaySettings,
  PublicOrderList,
  QueryOrderQuery,
  UpdatePaySettingsBody,
} from '@youju/contract';
import type { FastifyRequest } from 'fastify';
import { Envelope, ok } from '../../lib/envelope.js';
import { localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, clientInfo, requireRole } from '../../plugins/authentication.js';

/** This site as the request reached it, for notify and return URLs when no site address is set. */
function requestSiteUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Text values of a notice, whatever way it came (query string, form or JSON body). */
function noticeParams(request: FastifyRequest): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      const text = Array.isArray(value) ? value[0] : value;
      if (typeof text === 'string' || typeof text === 'number') merged[name] = String(text);
    }
  }
  return merged;
}

/** Public store calls under /api and the payment gateways' notify address. */
export const storeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { orders } = app.services;

  app.get(
    '/checkAddress',
    { schema: { querystring: CheckAddressQuery, response: { 200: Envelope(CheckAddressData) } } },
    async (request) => {
      // Why an address cannot be had, and the pay methods' names, are read by buyers: in their language.
      const answer = await orders.checkAddress(
        request.query.domainId,
        request.query.localPart,
        clientInfo(request),
      );
      const language = requestLanguage(request.headers['accept-language']);
      return ok(
        answer.reason === undefined ? answer : { ...answer, reason: localize(answer.reason, language) },
      );
    },
  );
  app.get('/getPayMethods', { schema: { response: { 200: Envelope(PayMethodList) } } }, async (request) => {
    const language = requestLanguage(request.headers['accept-language']);
    return ok(
      (await orders.payMethods()).map((method) => ({ ...method, name: localize(method.name, language) })),
    );
  });
  app.post(
    '/buyEmail',
    { schema: { body: BuyEmailBody, response: { 200: Envelope(BuyEmailData) } } },
    async (request) => ok(await orders.buy(request.body, clientInfo(request), requestSiteUrl(request))),
  );
  app.get(
    '/queryOrder',
    { schema: { querystring: QueryOrderQuery, response: { 200: Envelope(PublicOrderList) } } },
    async (request) => ok(await orders.byPhone(request.query.phone, clientInfo(request))),
  );

  // Gateways post notices as forms (and some call with GET): parse forms here, for this route only.
  await app.register(async (notify) => {
    notify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, parseQueryString(String(body))),
    );
    const handler = async (
      request: FastifyRequest<{ Params: { provider: string } }>,
      reply: import('fastify').FastifyReply,
    ) => {
      const result = await orders.handleNotice(request.params.provider, noticeParams(request));
      if (!result.ok)
        request.log.warn({ provider: request.params.provider, reason: result.reason }, '支付通知被拒绝');
      else if (result.reason)
        request.log.warn({ provider: request.params.provider, reason: result.reason }, '支付通知');
      // EPay gateways retry until they read exactly `success`.
      return reply
        .status(result.ok ? 200 : 400)
        .type('text/plain; charset=utf-8')
        .send(result.ok ? 'success' : 'fail');
    };
    const schema = { params: Type.Object({ provider: Type.String({ maxLength: 32 }) }) };
    notify.post('/pay/notify/:provider', { schema }, handler);
    notify.get('/pay/notify/:provider', { schema }, handler);
  });
};

/** Orders of the caller's domains and, for administrators, the payment settings (under /api/user). */
export const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { orders, paySettings } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');
  const admin = requireRole(app, 'admin');

  app.get(
    '/getOrders',
    { onRequest: systemUser, schema: { querystring: OrderQuery, response: { 200: Envelope(Page(Order)) } } },
    async (request) => ok(await orders.list(caller(request), request.query)),
  );
  app.post(
    '/confirmOrder',
    { onRequest: systemUser, schema: { body: OrderNoBody, response: { 200: Envelope(Order) } } },
    async (request) => ok(await orders.confirm(caller(request), request.body.orderNo)),
  );
  app.post(
    '/cancelOrder',
    { onRequest: systemUser, schema: { body: OrderNoBody, response: { 200: Envelope(Order) } } },
    async (request) => ok(await orders.cancel(caller(request), request.body.orderNo)),
  );
  app.get(
    '/getPaySettings',
    { onRequest: admin, schema: { response: { 200: Envelope(PaySettings) } } },
    async () => ok(await paySettings.view()),
  );
  app.post(
    '/updatePaySettings',
    { onRequest: admin, schema: { body: UpdatePaySettingsBody, response: { 200: Envelope(PaySettings) } } },
    async (request) => ok(await paySettings.update(request.body)),
  );
};
