/** The public face of the webhooks module: other code imports only from here. */
export { ownerEventEnqueuer, webhookEnqueuer } from './webhook-enqueue.js';
export { createWebhookModule, startWebhooks } from './webhook-module.js';
export { webhookRoutes } from './webhook-routes.js';
export type { WebhookService } from './webhook-service.js';
