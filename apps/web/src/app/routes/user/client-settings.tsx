import { useAddressChoice } from '../../../features/email-accounts/api/use-address-choice';
import { ClientSettingsView } from '../../../features/mail-clients/components/client-settings-view';
import { usePermissionStore } from '../../../state/permission';

/** A system user picks one of its mailbox addresses, or arrives with `?address=`. */
function SystemUserClientSettings() {
  return <ClientSettingsView {...useAddressChoice()} />;
}

/**
 * /user/clientSettings (客户端设置): a mailbox sees its own address; a system user chooses one of
 * its addresses, or arrives with `?address=` from the 邮箱账号 list.
 */
export function Component() {
  const role = usePermissionStore((state) => state.permissionData.role);
  return role === 'mailbox' ? <ClientSettingsView address={null} /> : <SystemUserClientSettings />;
}
