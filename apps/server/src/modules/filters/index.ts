/** The public face of the filters module: other code imports only from here. */
export { filterRoutes } from './filter-routes.js';
export type { FilterAction, FilterService } from './filter-service.js';
export { createFilterService } from './filter-service.js';
