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
    async (request) => ok(await webhooks.test(caller(request), request.body.id)),
  );
  app.get(
    '/getWebhookDeliveries',
    {
      onRequest: systemUser,
      schema: { querystring: WebhookDeliveriesQuery, response: { 200: Envelope(Page(WebhookDelivery)) } },
    },
    async (request) => ok(await webhooks.deliveries(caller(request), request.query)),
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
