import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Filter, FilterList, IdBody, NewFilter } from '@youju/contract';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** Content filters under /api/user: system users manage their own, administrators all. */
export const filterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { filters } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');

  app.get(
    '/getFilters',
    { onRequest: systemUser, schema: { response: { 200: Envelope(FilterList) } } },
    async (request) => ok(await filters.list(caller(request))),
  );
  app.post(
    '/addFilter',
    { onRequest: systemUser, schema: { body: NewFilter, response: { 200: Envelope(Filter) } } },
    async (request) => ok(await filters.add(caller(request), request.body)),
  );
  app.post(
    '/delFilter',
    { onRequest: systemUser, schema: { body: IdBody, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await filters.remove(caller(request), request.body.id);
      return ok();
    },
  );
};
