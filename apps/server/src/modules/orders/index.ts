/** The public face of the orders module: other code imports only from here. */
export { orderRoutes, storeRoutes } from './order-routes.js';
export { createOrderService, type OrderNotices } from './order-service.js';
