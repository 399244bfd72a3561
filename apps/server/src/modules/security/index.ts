/** The public face of the security module: other code imports only from here. */
export { securityRoutes } from './security-routes.js';
export type { LoginAttempt } from './security-service.js';
export { createSecurityService } from './security-service.js';
