import swagger from '@fastify/swagger';
import { API_KEY_HEADER } from '@youju/contract';
import type { FastifyInstance } from 'fastify';
import { APP_VERSION } from '../version.js';

/** Only the open API is documented: it is what scripts are meant to call. */
const DOCUMENTED = '/api/open/';

/**
 * The OpenAPI document at /api/openapi.json, generated from the route schemas themselves (so it
 * cannot drift from what the server validates). Must be installed before the routes it describes.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: '邮局（Youju）开放接口',
        description:
          '用“接口”页面的 API 密钥，通过请求头 X-API-Key 调用。所有响应都是 { error, msg, data }：error 为 0 表示成功，否则 msg 说明原因。',
        version: APP_VERSION,
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
      },
    },
    transform: ({ schema, url }) => ({
      schema: url.startsWith(DOCUMENTED) ? schema : { ...schema, hide: true },
      url,
    }),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
