import { useAddressChoice } from '../../../features/email-accounts/api/use-address-choice';
import { ForwardSettingsView } from '../../../features/forwarding/components/forward-settings-view';
import { usePermissionStore } from '../../../state/permission';

/** A system user picks one of its mailbox addresses, or arrives with `?address=`. */
function SystemUserForward() {
  return <ForwardSettingsView {...useAddressChoice()} />;
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
