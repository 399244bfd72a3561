/** The public face of the sending module: other code imports only from here. */

export { CHUNK_BYTES, copyFileToChunks } from './chunks.js';
export { createSendingModule, startSending } from './sending-module.js';
export { sendingRoutes } from './sending-routes.js';
export {
  isAnonymousMailbox,
  isVisitorMailbox,
  MAX_RECIPIENTS,
  SEND_COUNTERS,
  type Sender,
  type SendingService,
} from './sending-service.js';
