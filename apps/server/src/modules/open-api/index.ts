/** The public face of the open-api module: other code imports only from here. */
export { createOpenApiService } from './open-api-service.js';
export { openRoutes } from './open-routes.js';
