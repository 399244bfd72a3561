/** The public face of the api-keys module: other code imports only from here. */
export { apiKeyRoutes } from './api-key-routes.js';
export { createApiKeyService } from './api-key-service.js';
