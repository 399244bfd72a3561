/** The public face of the version module: other code imports only from here. */
export { versionRoutes } from './version-routes.js';
export { createVersionService } from './version-service.js';
