/** The public face of the mail module: other code imports only from here. */

export type {
  FolderMessageRow,
  FolderName,
  FolderService,
  MailFolderRow,
  MessageFlagChanges,
} from './folder-service.js';
export { createFolderService, FolderError } from './folder-service.js';
export { sanitizeMailHtml } from './html-sanitizer.js';
export type { AuthResult, MessageAuth } from './inbound-auth.js';
export { createInboundAuthenticator, parseMessageAuth } from './inbound-auth.js';
export type {
  DeliveryFailure,
  Envelope,
  ForwardingHook,
  ForwardPlan,
  InboundService,
  RecipientCheck,
  Spool,
  SrsReturn,
} from './inbound-service.js';
export { CommitDeclined, createInboundService, DeliveryError } from './inbound-service.js';
export type { MailEvents } from './mail-events.js';
export { createMailEvents } from './mail-events.js';
export { extractAttachment, type ParsedMail, parseMail, type StoredAttachment } from './mail-parser.js';
export { mailRoutes } from './mail-routes.js';
export type { MailService } from './mail-service.js';
export { createMailService } from './mail-service.js';
export { readRaw } from './raw-store.js';
export { startRetention } from './retention.js';
