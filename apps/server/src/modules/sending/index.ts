/** The public face of the sending module: other code imports only from here. */
export { createSendingModule, startSending } from './sending-module.js';
export { sendingRoutes } from './sending-routes.js';
export { MAX_RECIPIENTS, type Sender, type SendingService } from './sending-service.js';
