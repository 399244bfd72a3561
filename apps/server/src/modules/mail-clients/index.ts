/** The public face of the mail-clients module: other code imports only from here. */
export { autoconfigRoutes, clientSettingsRoutes } from './mail-clients-routes.js';
export { createMailClientsService, type MailClientsService } from './mail-clients-service.js';
