import { InboxView } from '../../../features/mail/components/inbox-view';
import { usePermissionStore } from '../../../stores/permission-store';

/** /user/inbox: a mailbox session reads its own address; system users pick among theirs. */
export function Component() {
  const permissionData = usePermissionStore((state) => state.permissionData);
  const mailboxAddress =
    permissionData.role === 'mailbox' && typeof permissionData.name === 'string' ? permissionData.name : null;
  return <InboxView mailboxAddress={mailboxAddress} />;
}
