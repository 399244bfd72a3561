/** The public face of the dns module: other code imports only from here. */
export {
  API_PROVIDER_KINDS,
  type ApiProviderKind,
  apiClient,
  apiFailure,
  DnsApiError,
} from './dns-api-providers.js';
export { createDnsLookup } from './dns-lookup.js';
export { setTxtRecords } from './dns-reconcile.js';
export { dnsRoutes } from './dns-routes.js';
export { createDnsService } from './dns-service.js';
