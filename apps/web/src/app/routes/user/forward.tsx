import { useSearchParams } from 'react-router-dom';
import { useEmailAccounts } from '../../../features/email-accounts/api/get-email-accounts';
import { ForwardSettingsView } from '../../../features/forwarding/components/forward-settings-view';
import { usePermissionStore } from '../../../state/permission';

/** A system user picks among its mailbox accounts (the first 100), or arrives with `?address=`. */
function SystemUserForward() {
  const [params, setParams] = useSearchParams();
  const accounts = useEmailAccounts({ page: 1, pageSize: 100 });
  const chosen = params.get('address');
  const listed = accounts.data?.list.map((account) => account.email) ?? [];
  // An address named in the link (the 邮箱账号 list's action) stays selectable even beyond the first page.
  const addresses = chosen && !listed.includes(chosen) ? [chosen, ...listed] : listed;
  return (
    <ForwardSettingsView
      address={chosen}
      addresses={addresses}
      onAddressChange={(address) => setParams({ address }, { replace: true })}
    />
  );
}

/**
 * /user/forward (邮件转发): a mailbox manages its own forwarding; a system user that of one of its
 * mailboxes, chosen here or from the 邮箱账号 list.
 */
export function Component() {
  const permissionData = usePermissionStore((state) => state.permissionData);
  if (permissionData.role === 'mailbox') {
    return (
      <ForwardSettingsView address={typeof permissionData.name === 'string' ? permissionData.name : null} />
    );
  }
  return <SystemUserForward />;
}
