import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  IdBody,
  LoginHistoryItem,
  LoginHistoryQuery,
  Page,
  RevokedCount,
  SessionList,
} from '@youju/contract';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** The security centre under /api/user: the caller's sessions and login history (every role). */
export const securityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { security } = app.services;
  const anyone = requireRole(app, 'admin', 'user', 'mailbox');

  app.get(
    '/getSessions',
    { onRequest: anyone, schema: { response: { 200: Envelope(SessionList) } } },
    async (request) => {
      // A device's name ("Windows 电脑 · Chrome 浏览器 120") is read as it is: in the caller's language.
      const language = requestLanguage(request.headers['accept-language']);
      const sessions = await security.sessions(caller(request));
      return ok(sessions.map((session) => ({ ...session, device: localize(session.device, language) })));
    },
  );
  app.post(
    '/revokeSession',
    { onRequest: anyone, schema: { body: IdBody, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await security.revokeSession(caller(request), request.body.id);
      return ok();
    },
  );
  app.post(
    '/revokeOtherSessions',
    { onRequest: anyone, schema: { response: { 200: Envelope(RevokedCount) } } },
    async (request) => ok({ revoked: await security.revokeOtherSessions(caller(request)) }),
  );
  app.get(
    '/getLoginHistory',
    {
      onRequest: anyone,
      schema: { querystring: LoginHistoryQuery, response: { 200: Envelope(Page(LoginHistoryItem)) } },
    },
    async (request) => {
      const language = requestLanguage(request.headers['accept-language']);
      const page = await security.loginHistory(caller(request), request.query);
      return ok({
        ...page,
        list: page.list.map((item) => ({
          ...item,
          device: localize(item.device, language),
          reason: localize(item.reason, language),
        })),
      });
    },
  );
};
