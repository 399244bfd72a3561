import { Permission } from '@youju/contract';
import { Space } from 'antd';
import { BlacklistCard } from '../../../features/firewall/components/blacklist-card';
import { ChangePasswordForm } from '../../../features/password/components/change-password-form';
import { LoginHistoryTable } from '../../../features/security/components/login-history-table';
import { SessionTable } from '../../../features/security/components/session-table';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { usePermissions } from '../../../state/permission';
import { saveToken } from '../../../state/session';

/** /user/safe: password, sessions, login history and, for administrators, the IP blacklist. */
export function Component() {
  const permissions = usePermissions();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <ChangePasswordForm
        onChanged={(token) => {
          // The answer carries a fresh token; every other session has ended.
          saveToken(token);
          showSuccessMessage(t('密码已修改，其他设备上的登录已失效'));
        }}
      />
      <SessionTable />
      <LoginHistoryTable />
      {permissions.includes(Permission.firewall) ? <BlacklistCard /> : null}
    </Space>
  );
}
