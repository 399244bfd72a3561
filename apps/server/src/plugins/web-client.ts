import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode, httpStatusFor } from '@youju/contract';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web client. Paths under /api that match no route get the 404 envelope; any
 * other GET that matches no file gets index.html (history fallback), so client routes survive a
 * reload.
 */
export async function installWebClient(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const hasClient = webRoot !== null && existsSync(join(webRoot, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      maxAge: '1h',
      setHeaders(res, path) {
        // Hashed assets never change; index.html must always be fresh to pick up a new build.
        if (path.includes(`${join('assets', '')}`))
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (
      path === '/api' ||
      path.startsWith('/api/') ||
      !hasClient ||
      !['GET', 'HEAD'].includes(request.method)
    ) {
      return reply
        .status(httpStatusFor(ErrorCode.notFound))
        .send({ error: ErrorCode.notFound, msg: `接口不存在：${request.method} ${path}` });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
