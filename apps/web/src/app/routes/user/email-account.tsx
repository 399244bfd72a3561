import { EmailAccountTable } from '../../../features/email-accounts/components/email-account-table';

export function Component() {
  return <EmailAccountTable />;
}
