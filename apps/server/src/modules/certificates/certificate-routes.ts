import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CertificatesData } from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** TLS certificates under /api/user, administrators only. */
export const certificateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { certificates, acme } = app.services;
  const administrator = requireRole(app, 'admin');

  app.get(
    '/getCertificates',
    { onRequest: administrator, schema: { response: { 200: Envelope(CertificatesData) } } },
    async () => ok({ certificates: acme.list() }),
  );
  app.post(
    '/reloadCertificates',
    { onRequest: administrator, schema: { response: { 200: Envelope(CertificatesData) } } },
    async () => {
      await certificates.reload();
      return ok({ certificates: acme.list() });
    },
  );
  // 立即续期: an ACME attempt now (rate-limited per administrator; 409 without ACME_EMAIL); the answer shows it renewing.
  app.post(
    '/renewCertificates',
    { onRequest: administrator, schema: { response: { 200: Envelope(CertificatesData) } } },
    async (request) => ok({ certificates: await acme.renewNow(caller(request).accountId ?? 0) }),
  );
};
