import { domainQueryKeys } from '../../../api/get-domains';

/**
 * Every query of this feature lives under ['domains'] (the list itself is the shared one in
 * src/api/get-domains.ts), so one invalidation refreshes them all.
 */
export const domainKeys = {
  ...domainQueryKeys,
  dkim: (id: number) => [...domainQueryKeys.all, id, 'dkim'] as const,
  provider: (id: number) => [...domainQueryKeys.all, id, 'provider'] as const,
};
