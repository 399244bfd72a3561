import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiKeyView } from '@youju/contract';
import { ApiError } from '../../lib/api-error.js';
import { Envelope, ok } from '../../lib/envelope.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** getKey / refreshKey under /api/user: the caller's key for the open API (system accounts). */
export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { apiKeys } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');
  const ownerOf = (accountId: number | null) => {
    if (accountId === null) throw ApiError.forbidden('只有系统账号可以使用 API 密钥');
    return accountId;
  };

  app.get(
    '/getKey',
    { onRequest: systemUser, schema: { response: { 200: Envelope(ApiKeyView) } } },
    async (request) => ok(await apiKeys.get(ownerOf(caller(request).accountId))),
  );
  app.post(
    '/refreshKey',
    { onRequest: systemUser, schema: { response: { 200: Envelope(ApiKeyView) } } },
    async (request) => ok(await apiKeys.refresh(ownerOf(caller(request).accountId))),
  );
};
