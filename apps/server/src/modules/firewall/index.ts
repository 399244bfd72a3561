/** The public face of the firewall module: other code imports only from here. */
export { createBlacklistService } from './blacklist-service.js';
export { firewallRoutes } from './firewall-routes.js';
export type { FirewallService } from './firewall-service.js';
export { createFirewallService } from './firewall-service.js';
export { installFirewallGuard } from './http-guard.js';
