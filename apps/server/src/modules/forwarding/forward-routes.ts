import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ForwardQuery, ForwardSetting, SetForward } from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** Mail forwarding under /api/user: a mailbox its own, system users the mailboxes they manage. */
export const forwardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { forwards } = app.services;
  const anyone = requireRole(app, 'admin', 'user', 'mailbox');

  app.get(
    '/getForward',
    { onRequest: anyone, schema: { querystring: ForwardQuery, response: { 200: Envelope(ForwardSetting) } } },
    async (request) => ok(await forwards.get(caller(request), request.query.address)),
  );
  app.post(
    '/setForward',
    { onRequest: anyone, schema: { body: SetForward, response: { 200: Envelope(ForwardSetting) } } },
    async (request) => ok(await forwards.set(caller(request), request.body)),
  );
};
