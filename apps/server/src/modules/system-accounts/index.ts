/** The public face of the system-accounts module: other code imports only from here. */
export { systemAccountRoutes } from './system-account-routes.js';
export { createSystemAccountService } from './system-account-service.js';
