import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ForwardQuery, ForwardSetting, SetForward } from '@youju/contract';
import type { FastifyRequest } from 'fastify';
import { Envelope, ok } from '../../lib/envelope.js';
import { type Language, localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** Why the latest copy was not forwarded, in the caller's language. */
function inLanguage(setting: ForwardSetting, language: Language): ForwardSetting {
  const skipped = setting.lastSkipped;
  return skipped
    ? { ...setting, lastSkipped: { ...skipped, reason: localize(skipped.reason, language) } }
    : setting;
}
const languageOf = (request: FastifyRequest) => requestLanguage(request.headers['accept-language']);

/** Mail forwarding under /api/user: a mailbox its own, system users the mailboxes they manage. */
export const forwardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { forwards } = app.services;
  const anyone = requireRole(app, 'admin', 'user', 'mailbox');

  app.get(
    '/getForward',
    { onRequest: anyone, schema: { querystring: ForwardQuery, response: { 200: Envelope(ForwardSetting) } } },
    async (request) =>
      ok(inLanguage(await forwards.get(caller(request), request.query.address), languageOf(request))),
  );
  app.post(
    '/setForward',
    { onRequest: anyone, schema: { body: SetForward, response: { 200: Envelope(ForwardSetting) } } },
    async (request) => ok(inLanguage(await forwards.set(caller(request), request.body), languageOf(request))),
  );
};
