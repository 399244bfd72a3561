import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import fastifyStatic, { type SetHeadersResponse } from '@fastify/static';
import { ErrorCode, httpStatusFor } from '@youju/contract';
import type { FastifyInstance } from 'fastify';

/**
 * Vite names what it bundles `assets/<name>-<hash>.<ext>`: a new build gives changed content a new
 * name, so a browser may keep these for a year without asking again.
 */
const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/**
 * Everything else (index.html above all, which names the current assets) is revalidated on each
 * use: the ETag makes that a 304 without a body while nothing changed, and a new release reaches
 * every browser at once.
 */
const REVALIDATED_CACHE = 'no-cache';

function isHashedAsset(file: string): boolean {
  return basename(dirname(file)) === 'assets';
}

function setCacheHeaders(response: SetHeadersResponse, file: string): void {
  response.setHeader('cache-control', isHashedAsset(file) ? HASHED_ASSET_CACHE : REVALIDATED_CACHE);
  // The same URL answers brotli, gzip or plain bytes depending on Accept-Encoding (RFC 9110
  // section 12.5.5), so a shared cache must keep them apart.
  response.setHeader('vary', 'accept-encoding');
}

/**
 * Serves the built web client. Paths under /api that match no route get the 404 envelope; any
 * other GET that matches no file gets index.html (history fallback), so client routes survive a
 * reload. Each text file is served in its precompressed form (`.br`, `.gz`, written by the build)
 * when the client accepts one, with an ETag (a weak one from size and time, so a conditional
 * request is answered 304).
 */
export async function installWebClient(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const hasClient = webRoot !== null && existsSync(join(webRoot, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The variants stand in for their file; they are not files of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: setCacheHeaders,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const notFound = httpStatusFor(ErrorCode.notFound);
    if (
      path === '/api' ||
      path.startsWith('/api/') ||
      !hasClient ||
      !['GET', 'HEAD'].includes(request.method)
    ) {
      return reply
        .status(notFound)
        .send({ error: ErrorCode.notFound, msg: `接口不存在：${request.method} ${path}` });
    }
    // A missing script or style sheet (one of an older build, say) must fail as such: answered with
    // index.html, the browser would only report a wrong MIME type.
    if (path.startsWith('/assets/')) {
      return reply.status(notFound).send({ error: ErrorCode.notFound, msg: `文件不存在：${path}` });
    }
    return reply.sendFile('index.html');
  });
}
