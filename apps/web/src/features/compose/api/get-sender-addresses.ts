import { useMemo } from 'react';
import { useAddresses } from '../../../api/get-addresses';
import { useDomains } from '../../../api/get-domains';

/** What a system user may put in From: its addresses, and any name on the domains it runs. */
export interface SenderChoices {
  addresses: string[];
  domains: string[];
}

/**
 * The From choices, from the shared address and domain lists (GET /api/user/emailList and
 * GET /api/user/getDomains); there once both have arrived. Mailbox sessions send from their one
 * address and have no lists to read.
 */
export function useSenderChoices(enabled: boolean): { data: SenderChoices | undefined } {
  const addresses = useAddresses(enabled);
  const domains = useDomains(enabled);
  const data = useMemo(
    () =>
      addresses.data && domains.data
        ? {
            addresses: addresses.data.map((item) => item.address),
            domains: domains.data.map((domain) => domain.name),
          }
        : undefined,
    [addresses.data, domains.data],
  );
  return { data };
}
