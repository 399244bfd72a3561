import { useSearchParams } from 'react-router-dom';
import { useEmailAccounts } from '../../../features/email-accounts/api/get-email-accounts';
import { ClientSettingsView } from '../../../features/mail-clients/components/client-settings-view';
import { usePermissionStore } from '../../../state/permission';

/** A system user picks among its mailbox accounts (the ones with a password): the first 100. */
function SystemUserClientSettings() {
  const [params, setParams] = useSearchParams();
  const accounts = useEmailAccounts({ page: 1, pageSize: 100 });
  const chosen = params.get('address');
  const listed = accounts.data?.list.map((account) => account.email) ?? [];
  // An address named in the link (the 邮箱账号 list's action) stays selectable even beyond the first page.
  const addresses = chosen && !listed.includes(chosen) ? [chosen, ...listed] : listed;
  return (
    <ClientSettingsView
      address={chosen}
      addresses={addresses}
      onAddressChange={(address) => setParams({ address }, { replace: true })}
    />
  );
}

/**
 * /user/clientSettings (客户端设置): a mailbox sees its own address; a system user chooses one of
 * its addresses, or arrives with `?address=` from the 邮箱账号 list.
 */
export function Component() {
  const role = usePermissionStore((state) => state.permissionData.role);
  return role === 'mailbox' ? <ClientSettingsView address={null} /> : <SystemUserClientSettings />;
}
