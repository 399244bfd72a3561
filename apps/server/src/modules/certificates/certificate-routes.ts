import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Certificate, CertificatesData } from '@youju/contract';
import type { FastifyRequest } from 'fastify';
import { Envelope, ok } from '../../lib/envelope.js';
import { type Language, localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** What is wrong with a certificate and the last ACME error, in the caller's language. */
function inLanguage(certificates: Certificate[], language: Language): { certificates: Certificate[] } {
  if (language === 'zh-CN') return { certificates };
  return {
    certificates: certificates.map((entry) => ({
      ...entry,
      ...(entry.detail === undefined ? {} : { detail: localize(entry.detail, language) }),
      ...(entry.acme?.lastError
        ? { acme: { ...entry.acme, lastError: localize(entry.acme.lastError, language) } }
        : {}),
    })),
  };
}
const languageOf = (request: FastifyRequest) => requestLanguage(request.headers['accept-language']);

/** TLS certificates under /api/user, administrators only. */
export const certificateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { certificates, acme } = app.services;
  const administrator = requireRole(app, 'admin');

  app.get(
    '/getCertificates',
    { onRequest: administrator, schema: { response: { 200: Envelope(CertificatesData) } } },
    async (request) => ok(inLanguage(acme.list(), languageOf(request))),
  );
  app.post(
    '/reloadCertificates',
    { onRequest: administrator, schema: { response: { 200: Envelope(CertificatesData) } } },
    async (request) => {
      await certificates.reload();
      return ok(inLanguage(acme.list(), languageOf(request)));
    },
  );
  // 立即续期: an ACME attempt now (rate-limited per administrator; 409 without ACME_EMAIL); the answer shows it renewing.
  app.post(
    '/renewCertificates',
    { onRequest: administrator, schema: { response: { 200: Envelope(CertificatesData) } } },
    async (request) =>
      ok(inLanguage(await acme.renewNow(caller(request).accountId ?? 0), languageOf(request))),
  );
};
