import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DnsProviderData,
  DnsRecordsData,
  GetDnsProviderQuery,
  IdBody,
  SetDnsProviderBody,
} from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { type Language, localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/**
 * The texts of a DNS check people read (each record's advice, the MAIL_HOSTNAME warning) in the
 * caller's language: the service writes them in Chinese, the catalogue has their English.
 */
function inLanguage(data: DnsRecordsData, language: Language): DnsRecordsData {
  if (language === 'zh-CN') return data;
  return {
    ...data,
    records: data.records.map((record) =>
      record.detail === undefined ? record : { ...record, detail: localize(record.detail, language) },
    ),
    ...(data.hostnameWarning ? { hostnameWarning: localize(data.hostnameWarning, language) } : {}),
  };
}

/** checkDNS, setDNS and the DNS provider of a domain, under /api/user. */
export const dnsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { dns } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');

  app.post(
    '/checkDNS',
    { onRequest: systemUser, schema: { body: IdBody, response: { 200: Envelope(DnsRecordsData) } } },
    async (request) =>
      ok(
        inLanguage(
          await dns.check(caller(request), request.body.id),
          requestLanguage(request.headers['accept-language']),
        ),
      ),
  );
  app.post(
    '/setDNS',
    { onRequest: systemUser, schema: { body: IdBody, response: { 200: Envelope(DnsRecordsData) } } },
    async (request) =>
      ok(
        inLanguage(
          await dns.set(caller(request), request.body.id),
          requestLanguage(request.headers['accept-language']),
        ),
      ),
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
