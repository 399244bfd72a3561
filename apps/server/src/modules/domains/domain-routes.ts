import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddDomainBody,
  DelDomainBody,
  Domain,
  DomainList,
  EditDomainBody,
  SaleDomainList,
  VerifyDomainBody,
} from '@youju/contract';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** Domain calls under /api/user: owners manage their own, administrators all. */
export const domainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { domains } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');

  app.get(
    '/getDomains',
    { onRequest: systemUser, schema: { response: { 200: Envelope(DomainList) } } },
    async (request) => ok(await domains.list(caller(request))),
  );
  app.post(
    '/addDomain',
    { onRequest: systemUser, schema: { body: AddDomainBody, response: { 200: Envelope(Domain) } } },
    async (request) => ok(await domains.add(caller(request), request.body)),
  );
  app.post(
    '/editDomain',
    { onRequest: systemUser, schema: { body: EditDomainBody, response: { 200: Envelope(Domain) } } },
    async (request) => ok(await domains.edit(caller(request), request.body)),
  );
  app.post(
    '/verifyDomain',
    { onRequest: systemUser, schema: { body: VerifyDomainBody, response: { 200: Envelope(Domain) } } },
    async (request) => ok(await domains.verify(caller(request), request.body.id)),
  );
  app.post(
    '/delDomain',
    { onRequest: systemUser, schema: { body: DelDomainBody, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await domains.remove(caller(request), request.body.id, request.body.force ?? false);
      return ok();
    },
  );
};

/** GET /api/getAdminDomains: domains whose mailboxes are for sale (public). */
export const storeDomainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/getAdminDomains', { schema: { response: { 200: Envelope(SaleDomainList) } } }, async () =>
    ok(await app.services.domains.forSale()),
  );
};
