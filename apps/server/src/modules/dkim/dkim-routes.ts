import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DkimData, IdQuery, RemoveDkimKeyBody, RotateDkimBody } from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** DKIM calls under /api/user: a domain's owner (or an administrator) sees and rotates its keys. */
export const dkimRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { dkim } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');

  app.get(
    '/getDkim',
    { onRequest: systemUser, schema: { querystring: IdQuery, response: { 200: Envelope(DkimData) } } },
    async (request) => ok(await dkim.get(caller(request), request.query.id)),
  );
  app.post(
    '/rotateDkim',
    { onRequest: systemUser, schema: { body: RotateDkimBody, response: { 200: Envelope(DkimData) } } },
    async (request) => ok(await dkim.rotate(caller(request), request.body.id, request.body.algorithm)),
  );
  app.post(
    '/removeDkimKey',
    { onRequest: systemUser, schema: { body: RemoveDkimKeyBody, response: { 200: Envelope(DkimData) } } },
    async (request) => ok(await dkim.removeRetired(caller(request), request.body.id, request.body.selector)),
  );
};
