import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AddBlacklistQuery, BlacklistList, RemoveBlacklistQuery } from '@youju/contract';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { requireRole } from '../../plugins/authentication.js';

/** The IP blacklist under /api/waf, administrators only. */
export const firewallRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { blacklist } = app.services;
  const admin = requireRole(app, 'admin');

  app.get(
    '/getBlacklist',
    { onRequest: admin, schema: { response: { 200: Envelope(BlacklistList) } } },
    async () => ok(await blacklist.list()),
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
