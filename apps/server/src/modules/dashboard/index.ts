/** The public face of the dashboard module: other code imports only from here. */
export { dashboardRoutes } from './dashboard-routes.js';
export { createDashboardService } from './dashboard-service.js';
