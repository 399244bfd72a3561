import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { VersionInfo } from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { requireRole } from '../../plugins/authentication.js';

/** GET /api/user/getVersion: the running release (system accounts; /user/version). */
export const versionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { version } = app.services;
  app.get(
    '/getVersion',
    { onRequest: requireRole(app, 'admin', 'user'), schema: { response: { 200: Envelope(VersionInfo) } } },
    async () => ok(await version.info()),
  );
};
