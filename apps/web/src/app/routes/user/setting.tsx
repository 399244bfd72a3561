import { Permission } from '@youju/contract';
import { Skeleton, Space } from 'antd';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useDomains } from '../../../api/get-domains';
import { ChangePasswordForm } from '../../../features/password/components/change-password-form';
import { useSettings } from '../../../features/settings/api/get-settings';
import { PersonalSettingsForm } from '../../../features/settings/components/personal-settings-form';
import { SystemSettingsForm } from '../../../features/settings/components/system-settings-form';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { usePermissionStore, usePermissions } from '../../../state/permission';
import { saveToken } from '../../../state/session';

/**
 * /user/setting: system settings for administrators, personal settings for everyone, and for mailbox
 * users the password change (system accounts find it in the security centre too).
 */
export function Component() {
  const permissions = usePermissions();
  const role = usePermissionStore((state) => state.permissionData.role);
  const isAdmin = permissions.includes(Permission.systemSettings);
  const settings = useSettings();
  const domains = useDomains(isAdmin);
  const { hash } = useLocation();
  const loaded = settings.data !== undefined;
  // /user/setting#payment (the old payment tab of 卡密管理 leads here): show that section.
  useEffect(() => {
    if (loaded && hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [loaded, hash]);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {settings.data ? <PersonalSettingsForm value={settings.data.personal} /> : <Skeleton active />}
      {role === 'mailbox' ? (
        <ChangePasswordForm
          oldPasswordOptional
          onChanged={(token) => {
            saveToken(token);
            showSuccessMessage(t('密码已修改，其他设备上的登录已失效'));
          }}
        />
      ) : null}
      {isAdmin && settings.data?.system ? (
        <SystemSettingsForm
          system={settings.data.system}
          {...(settings.data.payment ? { payment: settings.data.payment } : {})}
          domains={(domains.data ?? []).map(({ id, name }) => ({ id, name }))}
        />
      ) : null}
    </Space>
  );
}
