/** The public face of the sending module: other code imports only from here. */
export { createSendingModule, startSending } from './sending-module.js';
export { sendingRoutes } from './sending-routes.js';
