import { useSearchParams } from 'react-router-dom';
import { useEmailAccounts } from './get-email-accounts';

/**
 * A system user's choice of one of its mailbox addresses for a per-address screen (邮件转发,
 * 客户端设置): the first 100 accounts to pick from, the choice kept in `?address=` (so the 邮箱账号
 * list can link to it). An address named in the link stays selectable even beyond the first page.
 */
export function useAddressChoice(): {
  address: string | null;
  addresses: string[];
  onAddressChange: (address: string) => void;
} {
  const [params, setParams] = useSearchParams();
  const accounts = useEmailAccounts({ page: 1, pageSize: 100 });
  const address = params.get('address');
  const listed = accounts.data?.list.map((account) => account.email) ?? [];
  const addresses = address && !listed.includes(address) ? [address, ...listed] : listed;
  return {
    address,
    addresses,
    onAddressChange: (chosen) => setParams({ address: chosen }, { replace: true }),
  };
}
