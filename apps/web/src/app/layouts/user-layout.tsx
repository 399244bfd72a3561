import { KeyOutlined, LogoutOutlined, MailOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Grid, Layout, Menu, Modal, Space, Tag, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { LanguageSwitch } from '../../components/language-switch';
import { siteNameShown } from '../../config/constants';
import { roleLabel } from '../../config/labels';
import { allowedUserScreens, paths, userScreenByPath } from '../../config/routes';
import { useLogout } from '../../features/auth/api/logout';
import { useOrderNotices } from '../../features/orders/api/order-events';
import { CredentialDialog } from '../../features/temporary-mailbox/components/credential-dialog';
import { t } from '../../lib/i18n';
import { refreshVariables } from '../../lib/variables';
import { forgetCredential, setCredentialDialogOpen, useCredentialStore } from '../../state/credential';
import { usePermissionStore, usePermissions } from '../../state/permission';
import { clearToken } from '../../state/session';
import { useSettingsStore } from '../../state/settings';

/** Shown only for a screen the account may not open; its illustration is fetched then. */
const Result = lazy(() => import('antd/es/result'));

/** Who is logged in: the account or mailbox name and its role. */
function CurrentUser() {
  const permissionData = usePermissionStore((state) => state.permissionData);
  return (
    <Space size={4} style={{ minWidth: 0 }}>
      <UserOutlined />
      <Typography.Text data-testid="current-user" ellipsis style={{ maxWidth: 220 }}>
        {permissionData.name ?? ''}
      </Typography.Text>
      <Tag color={permissionData.role === 'admin' ? 'gold' : 'blue'}>{roleLabel(permissionData.role)}</Tag>
    </Space>
  );
}

/** The site name, linking home: the top of the side menu and of the menu drawer. */
function SiteLink({ siteName }: { siteName: string }) {
  return (
    <Link to={paths.home} style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '20px 24px' }}>
      <MailOutlined style={{ fontSize: 20 }} />
      <Typography.Text strong style={{ fontSize: 16 }}>
        {siteName}
      </Typography.Text>
    </Link>
  );
}

/**
 * Frame of the /user area: the screens the caller's permissions allow, who is logged in, logout. From
 * antd's lg breakpoint (992 px) the menu is a side bar; below it (phones, narrow windows) the menu is
 * a drawer opened from the header, so that the screen keeps the whole width.
 */
export function Component() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const siteName = siteNameShown(useSettingsStore((state) => state.settings.siteName));
  const allowed = allowedUserScreens(permissions);
  const current = userScreenByPath(pathname);
  // Before antd has measured the window, `lg` is undefined: draw the desktop frame (the common case).
  const narrow = Grid.useBreakpoint().lg === false;
  const [menuOpen, setMenuOpen] = useState(false);
  // A domain owner hears of new store orders on every /user screen.
  const role = usePermissionStore((state) => state.permissionData.role);
  useOrderNotices(role === 'admin' || role === 'user');
  // Whatever changed the screen (a menu entry, the browser's back), the drawer has done its job.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input
  useEffect(() => setMenuOpen(false), [pathname]);

  const [modal, modalHolder] = Modal.useModal();
  const unsavedEmail = useCredentialStore((state) => state.unsavedEmail);
  const credentialShown = useCredentialStore((state) => state.credential !== null);
  const logoutMutation = useLogout(async () => {
    clearToken();
    forgetCredential();
    queryClient.clear();
    await refreshVariables();
    await navigate(paths.auth);
  });
  const logout = () => {
    if (unsavedEmail === null) {
      logoutMutation.mutate();
      return;
    }
    // A one-click mailbox is reached again only with its credential: say so first.
    modal.confirm({
      title: t('凭证尚未保存，确定退出？'),
      content: t(
        '临时邮箱 {email} 的凭证还没有复制或下载。退出后，只有用邮箱地址和凭证才能重新登录；凭证丢失则无法再进入这个邮箱。',
        { email: unsavedEmail },
      ),
      okText: t('仍然退出'),
      okButtonProps: { danger: true },
      cancelText: credentialShown ? t('先去保存') : t('取消'),
      onOk: () => logoutMutation.mutate(),
      onCancel: () => {
        if (credentialShown) setCredentialDialogOpen(true);
      },
    });
  };

  const menu = (
    <Menu
      mode="inline"
      selectedKeys={current ? [current.path] : []}
      items={allowed.map((entry) => ({
        key: entry.path,
        icon: <entry.icon />,
        label: <Link to={entry.path}>{entry.name}</Link>,
      }))}
      onClick={() => setMenuOpen(false)}
      style={{ borderInlineEnd: 0 }}
    />
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {narrow ? (
        <Drawer
          placement="left"
          size={280}
          open={menuOpen}
          onClose={() => setMenuOpen(false)}
          title={<CurrentUser />}
          rootClassName="menu-drawer"
          styles={{ body: { padding: 0 } }}
        >
          <SiteLink siteName={siteName} />
          {menu}
          <LanguageSwitch style={{ margin: '8px 16px' }} />
        </Drawer>
      ) : (
        <Layout.Sider theme="light" style={{ borderRight: '1px solid #f0f0f0' }}>
          <SiteLink siteName={siteName} />
          {menu}
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 8,
            background: '#fff',
            padding: narrow ? '0 12px' : '0 24px',
          }}
        >
          <Space size={4} style={{ minWidth: 0 }}>
            {narrow ? (
              <Button
                type="text"
                icon={<MenuOutlined />}
                aria-label={t('打开菜单')}
                aria-expanded={menuOpen}
                data-testid="menu-button"
                onClick={() => setMenuOpen(true)}
              />
            ) : null}
            <Typography.Title level={5} ellipsis style={{ margin: 0 }}>
              {current?.name ?? siteName}
            </Typography.Title>
          </Space>
          <Space size={narrow ? 4 : 'middle'}>
            {narrow ? null : <LanguageSwitch />}
            {narrow ? null : <CurrentUser />}
            <Button
              icon={<LogoutOutlined />}
              aria-label={narrow ? t('退出登录') : undefined}
              loading={logoutMutation.isPending}
              onClick={logout}
            >
              {narrow ? null : t('退出登录')}
            </Button>
            {credentialShown ? (
              <Button
                icon={narrow ? <KeyOutlined /> : undefined}
                aria-label={narrow ? t('查看凭证') : undefined}
                onClick={() => setCredentialDialogOpen(true)}
                data-testid="show-credential"
              >
                {narrow ? null : t('查看凭证')}
              </Button>
            ) : null}
          </Space>
        </Layout.Header>
        <Layout.Content style={{ padding: narrow ? 12 : 24 }}>
          {current && !permissions.includes(current.permission) ? (
            <Suspense fallback={null}>
              <Result
                status="403"
                title={t('没有权限')}
                subTitle={
                  narrow
                    ? t('当前账号无权访问此页面，请从菜单选择。')
                    : t('当前账号无权访问此页面，请从左侧菜单选择。')
                }
              />
            </Suspense>
          ) : (
            <Outlet />
          )}
        </Layout.Content>
        {modalHolder}
        <CredentialDialog />
      </Layout>
    </Layout>
  );
}
