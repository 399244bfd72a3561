import type { FastifyInstance } from 'fastify';

/**
 * Times every HTTP request into `youju_http_request_duration_seconds`, labelled by the route's
 * pattern (`/api/user/getMail/:id`), never its raw URL: ids and query strings would make a series
 * per request. Requests that match no route (scanners, the web client's history fallback) share one
 * label.
 */
export function installHttpMetrics(app: FastifyInstance): void {
  const { metrics } = app.services;
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
}
