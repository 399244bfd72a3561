/** The public face of the cards module: other code imports only from here. */
export { cardRoutes, publicCardRoutes } from './card-routes.js';
export { createCardService } from './card-service.js';
