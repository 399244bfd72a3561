import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreatedWebhook,
  EditWebhook,
  IdBody,
  NewWebhook,
  Page,
  TelegramSettings,
  TelegramSettingsInput,
  Webhook,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookList,
  WebhookTestResult,
} from '@youju/contract';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** Webhooks and Telegram under /api/user: each system account manages its own. */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { webhooks } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');

  app.get(
    '/getWebhooks',
    { onRequest: systemUser, schema: { response: { 200: Envelope(WebhookList) } } },
    async (request) => ok(await webhooks.list(caller(request))),
  );
  app.post(
    '/addWebhook',
    { onRequest: systemUser, schema: { body: NewWebhook, response: { 200: Envelope(CreatedWebhook) } } },
    async (request) => ok(await webhooks.add(caller(request), request.body)),
  );
  app.post(
    '/editWebhook',
    { onRequest: systemUser, schema: { body: EditWebhook, response: { 200: Envelope(Webhook) } } },
    async (request) => ok(await webhooks.edit(caller(request), request.body)),
  );
  app.post(
    '/delWebhook',
    { onRequest: systemUser, schema: { body: IdBody, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await webhooks.remove(caller(request), request.body.id);
      return ok();
    },
  );
  app.post(
    '/testWebhook',
    { onRequest: systemUser, schema: { body: IdBody, response: { 200: Envelope(WebhookTestResult) } } },
    async (request) => {
      // Why a delivery failed is written by the server: read in the caller's language.
      const result = await webhooks.test(caller(request), request.body.id);
      const language = requestLanguage(request.headers['accept-language']);
      return ok({ ...result, error: result.error === null ? null : localize(result.error, language) });
    },
  );
  app.get(
    '/getWebhookDeliveries',
    {
      onRequest: systemUser,
      schema: { querystring: WebhookDeliveriesQuery, response: { 200: Envelope(Page(WebhookDelivery)) } },
    },
    async (request) => {
      const page = await webhooks.deliveries(caller(request), request.query);
      const language = requestLanguage(request.headers['accept-language']);
      return ok({
        ...page,
        list: page.list.map((delivery) => ({
          ...delivery,
          lastError: delivery.lastError === null ? null : localize(delivery.lastError, language),
        })),
      });
    },
  );
  app.get(
    '/getTelegram',
    { onRequest: systemUser, schema: { response: { 200: Envelope(TelegramSettings) } } },
    async (request) => ok(await webhooks.telegram(caller(request))),
  );
  app.post(
    '/setTelegram',
    { onRequest: systemUser, schema: { body: TelegramSettingsInput, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await webhooks.setTelegram(caller(request), request.body);
      return ok();
    },
  );
};
