import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateSysAccountBody,
  EditSysAccountBody,
  IdBody,
  Page,
  PageQuery,
  SysAccount,
} from '@youju/contract';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** System accounts under /api/admin, administrators only. */
export const systemAccountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { systemAccounts } = app.services;
  const admin = requireRole(app, 'admin');

  app.get(
    '/getSysAccount',
    { onRequest: admin, schema: { querystring: PageQuery, response: { 200: Envelope(Page(SysAccount)) } } },
    async (request) => ok(await systemAccounts.list(request.query)),
  );
  app.post(
    '/createSysAccount',
    { onRequest: admin, schema: { body: CreateSysAccountBody, response: { 200: Envelope(SysAccount) } } },
    async (request) => ok(await systemAccounts.create(request.body)),
  );
  app.post(
    '/editSysAccount',
    { onRequest: admin, schema: { body: EditSysAccountBody, response: { 200: Envelope(SysAccount) } } },
    async (request) => ok(await systemAccounts.edit(request.body)),
  );
  app.post(
    '/delSysAccount',
    { onRequest: admin, schema: { body: IdBody, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await systemAccounts.remove(caller(request), request.body.id);
      return ok();
    },
  );
};
