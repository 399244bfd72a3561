/** The public face of the forwarding module: other code imports only from here. */
export { createForwardingHook, FORWARD_MARK, MAX_RECEIVED_TO_FORWARD } from './forward-enqueue.js';
export { forwardRoutes } from './forward-routes.js';
export { createForwardService, type ForwardService } from './forward-service.js';
