import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../lib/api-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the blacklist does not apply to this route. Only for the operator's probes and metrics,
     * which must answer about the process even while the blacklist cannot be read (the database
     * away), and which a load balancer or Prometheus asks from addresses an operator never bans.
     */
    firewall?: boolean;
  }
}

/**
 * Refuses every HTTP request from a blacklisted address before anything else runs: 403 for an
 * operator's entry, 429 with Retry-After for an automatic ban. The check is the firewall service's cached snapshot, so it costs no database round trip per
 * request, and a ban made by any process applies here within a second.
 */
export function installFirewallGuard(app: FastifyInstance): void {
  const { firewall } = app.services;
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.firewall === false) return;
    const block = await firewall.blockOf(request.ip);
    if (!block) return;
    if (block.automatic) {
      // An automatic ban is temporary and may have caught someone sharing the address: say when to
      // come back (429 + Retry-After), rather than that they are unwelcome.
      const seconds =
        block.expiresAt === null ? 3600 : Math.max(1, Math.ceil((block.expiresAt - Date.now()) / 1000));
      throw ApiError.tooMany(
        `您所在的网络近期有大量异常请求，已被临时限制访问，请约 ${Math.ceil(seconds / 60)} 分钟后再试`,
        seconds,
      );
    }
    throw ApiError.forbidden('您的 IP 地址已被列入黑名单，暂时无法访问；如有疑问请联系站点管理员');
  });
}
