import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AddressItem } from '@youju/contract';
import { apiGet } from '../lib/http';

/** The system user's addresses: the inbox's address picker and the From field of compose. */
export const addressQueryKeys = { all: ['addresses'] as const };

/** GET /api/user/emailList: the system user's temporary addresses, with their unread counts. */
export function getAddresses(): Promise<AddressItem[]> {
  return apiGet<AddressItem[]>('/user/emailList');
}

export function getAddressesQueryOptions() {
  return queryOptions({ queryKey: addressQueryKeys.all, queryFn: getAddresses });
}

/** Mailbox sessions have no address list (their one address is in permissionData). */
export function useAddresses(enabled = true) {
  return useQuery({ ...getAddressesQueryOptions(), enabled });
}
