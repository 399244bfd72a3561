import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DnsProviderData,
  DnsRecordsData,
  GetDnsProviderQuery,
  IdBody,
  SetDnsProviderBody,
} from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** checkDNS, setDNS and the DNS provider of a domain, under /api/user. */
export const dnsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { dns } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');

  app.post(
    '/checkDNS',
    { onRequest: systemUser, schema: { body: IdBody, response: { 200: Envelope(DnsRecordsData) } } },
    async (request) => ok(await dns.check(caller(request), request.body.id)),
  );
  app.post(
    '/setDNS',
    { onRequest: systemUser, schema: { body: IdBody, response: { 200: Envelope(DnsRecordsData) } } },
    async (request) => ok(await dns.set(caller(request), request.body.id)),
  );
  app.get(
    '/getDnsProvider',
    {
      onRequest: systemUser,
      schema: { querystring: GetDnsProviderQuery, response: { 200: Envelope(DnsProviderData) } },
    },
    async (request) => ok({ provider: await dns.getProvider(caller(request), request.query.id) }),
  );
  app.post(
    '/setDnsProvider',
    {
      onRequest: systemUser,
      schema: { body: SetDnsProviderBody, response: { 200: Envelope(DnsProviderData) } },
    },
    async (request) => ok({ provider: await dns.setProvider(caller(request), request.body) }),
  );
};
