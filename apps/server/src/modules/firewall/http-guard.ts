import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../lib/api-error.js';

/**
 * Refuses every HTTP request from a blacklisted address with 403 before anything else runs (issue
 * 7). The check is the firewall service's cached snapshot, so it costs no database round trip per
 * request, and a ban made by any process applies here within a second.
 */
export function installFirewallGuard(app: FastifyInstance): void {
  const { firewall } = app.services;
  app.addHook('onRequest', async (request) => {
    if (await firewall.isBlocked(request.ip)) {
      throw ApiError.forbidden('您的 IP 地址已被列入黑名单，暂时无法访问；如有疑问请联系站点管理员');
    }
  });
}
