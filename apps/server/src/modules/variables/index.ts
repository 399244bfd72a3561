/** The public face of the variables module: other code imports only from here. */
export { variablesRoutes } from './variables-routes.js';
