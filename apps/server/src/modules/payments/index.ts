/** The public face of the payments module: other code imports only from here. */
export { epayProvider } from './epay-provider.js';
export { manualProvider } from './manual-provider.js';
export type { PaymentNotice, PaymentProvider } from './payment-provider.js';
export type { PaySettingsStore } from './payment-settings.js';
export { createPaySettingsStore } from './payment-settings.js';
