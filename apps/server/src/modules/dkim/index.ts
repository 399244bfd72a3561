/** The public face of the dkim module: other code imports only from here. */
export { generateDkimKey, parseTagList } from './dkim-keys.js';
export { dkimRoutes } from './dkim-routes.js';
export type { DkimService, SigningKey } from './dkim-service.js';
export { createDkimService, storeDkimKey } from './dkim-service.js';
