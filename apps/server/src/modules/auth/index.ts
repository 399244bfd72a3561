/** The public face of the auth module: other code imports only from here. */
export { authRoutes, sessionRoutes } from './auth-routes.js';
export { createAuthService } from './auth-service.js';
export { createSignUpLimit } from './sign-up-limit.js';
