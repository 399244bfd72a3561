import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AddBlacklistQuery, BlacklistList, RemoveBlacklistQuery } from '@youju/contract';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { localize, requestLanguage } from '../../lib/i18n/index.js';
import { requireRole } from '../../plugins/authentication.js';

/** The IP blacklist under /api/waf, administrators only. */
export const firewallRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { blacklist } = app.services;
  const admin = requireRole(app, 'admin');

  app.get(
    '/getBlacklist',
    { onRequest: admin, schema: { response: { 200: Envelope(BlacklistList) } } },
    async (request) => {
      // An automatic block's reason is written by the server: read in the caller's language (an
      // administrator's own reason is left as typed).
      const language = requestLanguage(request.headers['accept-language']);
      const entries = await blacklist.list();
      return ok(entries.map((entry) => ({ ...entry, reason: localize(entry.reason, language) })));
    },
  );
  app.get(
    '/addBlacklistIP',
    {
      onRequest: admin,
      schema: {
        querystring: AddBlacklistQuery,
        response: { 200: Envelope(Type.Object({ ip: Type.String() })) },
      },
    },
    async (request) => ok(await blacklist.add(request.query, request.ip)),
  );
  app.get(
    '/removeBlacklistIP',
    { onRequest: admin, schema: { querystring: RemoveBlacklistQuery, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await blacklist.remove(request.query.ip);
      return ok();
    },
  );
};
