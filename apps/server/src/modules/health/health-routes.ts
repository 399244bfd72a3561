import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { OperatorRequest } from './health-service.js';

const Check = Type.Object({ ok: Type.Boolean(), detail: Type.Optional(Type.String()) });
const Liveness = Type.Object({ status: Type.Literal('ok') });
const ReadinessReply = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
  failed: Type.Array(Type.String()),
  checks: Type.Object({ database: Check, smtp: Check, disk: Check }),
});

/**
 * The operator's endpoints, outside /api and without authentication: GET /healthz (liveness) and
 * GET /readyz (readiness) for load balancers and orchestrators, GET /metrics (Prometheus text
 * format) for loopback clients or METRICS_TOKEN. Plain JSON rather than the API envelope: what
 * reads them is a probe, not the web client.
 */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { health, metrics } = app.services;
  // The blacklist is read from the database: the probes must answer while it is away.
  const config = { firewall: false };

  app.get('/healthz', { config, schema: { response: { 200: Liveness } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/readyz',
    { config, schema: { response: { 200: ReadinessReply, 503: ReadinessReply } } },
    async (request, reply) => {
      const readiness = await health.readiness();
      // Details (database errors name hosts and users) only for operators; a load balancer needs
      // the status and the names of what failed.
      const details = health.isOperator(operatorRequest(request));
      const check = ({ ok, detail }: { ok: boolean; detail: string }) => (details ? { ok, detail } : { ok });
      return reply.status(readiness.ready ? 200 : 503).send({
        status: readiness.ready ? 'ready' : 'not ready',
        failed: readiness.failed,
        checks: {
          database: check(readiness.checks.database),
          smtp: check(readiness.checks.smtp),
          disk: check(readiness.checks.disk),
        },
      });
    },
  );

  app.get('/metrics', { config }, async (request, reply) => {
    health.authorizeMetrics(operatorRequest(request));
    const text = await metrics.render();
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
  });
};

function operatorRequest(request: FastifyRequest): OperatorRequest {
  return {
    ip: request.ip,
    authorization: request.headers.authorization,
    forwarded: request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined,
  };
}
