import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AddressItem } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { mailKeys } from './get-inbox';

/** GET /api/user/emailList: the system user's temporary addresses. */
export function getAddresses(): Promise<AddressItem[]> {
  return callApi<AddressItem[]>({ method: 'GET', url: '/user/emailList' });
}

export function getAddressesQueryOptions() {
  return queryOptions({ queryKey: mailKeys.addresses(), queryFn: getAddresses });
}

/** Mailbox sessions have no address list (their one address is in permissionData). */
export function useAddresses(enabled: boolean) {
  return useQuery({ ...getAddressesQueryOptions(), enabled });
}
