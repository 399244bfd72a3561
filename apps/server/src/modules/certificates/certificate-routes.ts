import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CertificatesData } from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { requireRole } from '../../plugins/authentication.js';

/** TLS certificates under /api/user, administrators only. */
export const certificateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { certificates } = app.services;
  const administrator = requireRole(app, 'admin');

  app.get(
    '/getCertificates',
    { onRequest: administrator, schema: { response: { 200: Envelope(CertificatesData) } } },
    async () => ok({ certificates: certificates.list() }),
  );
  app.post(
    '/reloadCertificates',
    { onRequest: administrator, schema: { response: { 200: Envelope(CertificatesData) } } },
    async () => ok({ certificates: await certificates.reload() }),
  );
};
