import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ClientSettingsData, ClientSettingsQuery } from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';
import { contentDisposition } from '../../protocols/mime/content-disposition.js';
import { AUTOCONFIG_PATHS, AUTODISCOVER_MAX_BYTES } from './mail-clients-service.js';

const XML = 'application/xml; charset=utf-8';
const EmailAddressQuery = Type.Object({ emailaddress: Type.Optional(Type.String({ maxLength: 320 })) });

/**
 * Mail-client autoconfiguration, public and outside /api (clients ask for these exact paths):
 * Thunderbird's clientConfig v1.1 at the provider's well-known path and at the ISPDB-style path
 * (`?emailaddress=`), Outlook's POX autodiscover (POST). The firewall hook still applies.
 */
export const autoconfigRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { mailClients } = app.services;
  app.addHook('onRequest', async (request) => mailClients.admitPublic(request.ip));

  // Outlook posts text/xml; some clients send no or another type. Read any body as text here only
  // (this plugin's routes), with a small cap; it is never given to an XML parser.
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: AUTODISCOVER_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  for (const path of [AUTOCONFIG_PATHS.thunderbird, AUTOCONFIG_PATHS.thunderbirdIspdb]) {
    app.get(path, { schema: { querystring: EmailAddressQuery } }, async (request, reply) =>
      reply
        .type(XML)
        .header('cache-control', 'public, max-age=3600')
        .send(mailClients.thunderbirdXml(request.query.emailaddress)),
    );
  }

  app.post(AUTOCONFIG_PATHS.autodiscover, { bodyLimit: AUTODISCOVER_MAX_BYTES }, async (request, reply) =>
    reply
      .type(XML)
      .header('cache-control', 'no-store')
      .send(mailClients.autodiscoverXml(typeof request.body === 'string' ? request.body : '')),
  );
};

/** getClientSettings and the Apple profile download under /api/user. */
export const clientSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { mailClients } = app.services;
  const signedIn = requireRole(app, 'admin', 'user', 'mailbox');

  app.get(
    '/getClientSettings',
    {
      onRequest: signedIn,
      schema: { querystring: ClientSettingsQuery, response: { 200: Envelope(ClientSettingsData) } },
    },
    async (request) => ok(await mailClients.clientSettings(caller(request), request.query.address)),
  );

  app.get(
    '/getMobileConfig',
    { onRequest: signedIn, schema: { querystring: ClientSettingsQuery } },
    async (request, reply) => {
      const profile = await mailClients.mobileconfig(caller(request), request.query.address);
      return reply
        .type('application/x-apple-aspen-config; charset=utf-8')
        .header('content-disposition', contentDisposition('attachment', profile.filename))
        .header('cache-control', 'no-store')
        .send(profile.content);
    },
  );
};
