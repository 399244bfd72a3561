import swagger from '@fastify/swagger';
import { API_KEY_HEADER } from '@youju/contract';
import type { FastifyInstance } from 'fastify';
import { APP_VERSION } from '../version.js';

/** Only the open API is documented: it is what scripts are meant to call. */
const DOCUMENTED = '/api/open/';

/**
 * The document's description: how to call, and how a webhook receiver checks a delivery (webhooks
 * are set up in the web client, but their receivers are programs like the open API's callers).
 */
const OPEN_API_DESCRIPTION = [
  '用“接口”页面的 API 密钥，通过请求头 X-API-Key 调用。所有响应都是 { error, msg, data }：error 为 0 表示成功，否则 msg 说明原因。',
  '',
  '## Webhook 推送',
  '在“接口”页面添加 Webhook 后，新邮件到达时服务器向回调地址 POST JSON：',
  '`{ event: "mail.received", id, address, from, subject, receivedAt, code, folder, text }`（text 截取前 4 KB）。',
  '请求头：`X-Youju-Event`（事件）、`X-Youju-Delivery`（投递编号，重试时不变，可用来去重）、',
  '`X-Youju-Timestamp`（秒）、`X-Youju-Signature: sha256=<十六进制 HMAC-SHA256(签名密钥, "时间戳.请求体")>`。',
  '返回 2xx 表示收到；否则或 10 秒无响应会在 1 分钟内重试，之后间隔加倍，24 小时后放弃。',
  '',
  '校验签名（Node.js，rawBody 为收到的原始请求体）：',
  '```js',
  "import { createHmac, timingSafeEqual } from 'node:crypto';",
  'function verify(secret, timestamp, rawBody, signature) {',
  "  const expected = 'sha256=' + createHmac('sha256', secret).update(timestamp + '.' + rawBody).digest('hex');",
  '  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));',
  '}',
  '```',
  '校验签名（Python，raw_body 为 bytes）：',
  '```python',
  'import hashlib, hmac',
  'def verify(secret: str, timestamp: str, raw_body: bytes, signature: str) -> bool:',
  '    expected = "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + raw_body, hashlib.sha256).hexdigest()',
  '    return hmac.compare_digest(signature, expected)',
  '```',
  '另请拒绝时间戳与当前时间相差超过 5 分钟的请求，防止重放。',
].join('\n');

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
        description: OPEN_API_DESCRIPTION,
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
