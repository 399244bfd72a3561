import { MailOutlined } from '@ant-design/icons';
import { Alert, Flex, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router-dom';
import { LanguageSwitch } from '../../components/language-switch';
import { siteNameShown } from '../../config/constants';
import { paths } from '../../config/routes';
import { AuthPanel } from '../../features/auth/components/auth-panel';
import { t } from '../../lib/i18n';
import { useSessionStore } from '../../state/session';
import { useSettingsStore } from '../../state/settings';
import { useEnterSession } from '../use-enter-session';

/** Login, mailbox registration and first-run set-up; `?tab=mailbox` (or system, register) opens that tab. */
export function Component() {
  const enter = useEnterSession();
  const [searchParams] = useSearchParams();
  const siteName = siteNameShown(useSettingsStore((state) => state.settings.siteName));
  const loggedIn = useSessionStore((state) => state.token !== null);

  return (
    <Flex
      vertical
      align="center"
      gap={24}
      style={{ minHeight: '100vh', padding: '64px 16px', background: '#f5f5f5' }}
    >
      <Link to={paths.home} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <MailOutlined style={{ fontSize: 28 }} />
        <Typography.Title level={2} style={{ margin: 0 }}>
          {siteName}
        </Typography.Title>
      </Link>
      {loggedIn ? (
        <Alert
          type="info"
          showIcon
          style={{ width: '100%', maxWidth: 440 }}
          title={t('你已登录')}
          action={<Link to={paths.user}>{t('进入邮箱')}</Link>}
        />
      ) : null}
      <AuthPanel onAuthenticated={enter} requestedTab={searchParams.get('tab')} />
      <Link to={paths.home}>{t('返回首页')}</Link>
      <LanguageSwitch />
    </Flex>
  );
}
