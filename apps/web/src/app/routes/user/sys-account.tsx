import { SysAccountTable } from '../../../features/sys-accounts/components/sys-account-table';

export function Component() {
  return <SysAccountTable />;
}
