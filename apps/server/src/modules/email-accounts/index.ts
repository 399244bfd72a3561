/** The public face of the email-accounts module: other code imports only from here. */
export { formatCsvTime, formatMegabytes } from './csv-values.js';
export { emailAccountRoutes } from './email-account-routes.js';
export { createEmailAccountService } from './email-account-service.js';
export { ensureMailboxLimit, ensureMailboxPlaceLeft, remainingStock } from './mailbox-limits.js';
export { addressTakenReason, insertAccount, insertOrderedAccount } from './mailbox-store.js';
