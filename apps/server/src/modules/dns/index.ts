/** The public face of the dns module: other code imports only from here. */
export { createDnsLookup } from './dns-lookup.js';
export { dnsRoutes } from './dns-routes.js';
export { createDnsService } from './dns-service.js';
