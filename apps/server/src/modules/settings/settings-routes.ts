import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SettingData, UpdateSettingBody } from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** getSetting / updateSetting under /api/user (every logged-in role; system parts for admins). */
export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { settingsEditor } = app.services;
  const anyone = requireRole(app, 'admin', 'user', 'mailbox');

  app.get(
    '/getSetting',
    { onRequest: anyone, schema: { response: { 200: Envelope(SettingData) } } },
    async (request) => ok(await settingsEditor.read(caller(request))),
  );
  app.post(
    '/updateSetting',
    { onRequest: anyone, schema: { body: UpdateSettingBody, response: { 200: Envelope(SettingData) } } },
    async (request) => ok(await settingsEditor.update(caller(request), request.body)),
  );
};
