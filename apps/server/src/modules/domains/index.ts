/** The public face of the domains module: other code imports only from here. */
export { displayDomainName, normalizeDomainName } from './domain-name.js';
export { domainRoutes, storeDomainRoutes } from './domain-routes.js';
export type { DomainService } from './domain-service.js';
export { createDomainService } from './domain-service.js';
export { isReservedLocalPart, refusePendingDomain, refuseReservedLocalPart } from './reserved-local-parts.js';
