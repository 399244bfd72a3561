import { MailOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Flex, Typography } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { DEFAULT_SITE_NAME } from '../../config/constants';
import { paths } from '../../config/routes';
import { AuthPanel } from '../../features/auth/components/auth-panel';
import { refreshVariables } from '../../lib/variables';
import { forgetCredential } from '../../state/credential';
import { saveToken, useSessionStore } from '../../state/session';
import { useSettingsStore } from '../../state/settings';

/** Login, mailbox registration and first-run set-up. */
export function Component() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const siteName = useSettingsStore((state) => state.settings.siteName) || DEFAULT_SITE_NAME;
  const loggedIn = useSessionStore((state) => state.token !== null);

  // A new session: forget the previous caller's data and fetch the variables of the new role before
  // entering /user, so that its menus match at once.
  const enter = async (token: string) => {
    saveToken(token);
    // Another login: a temporary mailbox's unsaved credential is no longer this session's concern.
    forgetCredential();
    queryClient.clear();
    await refreshVariables();
    await navigate(paths.user);
  };

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
          title="你已登录"
          action={<Link to={paths.user}>进入邮箱</Link>}
        />
      ) : null}
      <AuthPanel onAuthenticated={enter} />
      <Link to={paths.home}>返回首页</Link>
    </Flex>
  );
}
