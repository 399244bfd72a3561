import { LogoutOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Menu, Modal, Space, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { DEFAULT_SITE_NAME } from '../../config/constants';
import { roleLabel } from '../../config/labels';
import { allowedUserScreens, paths, userScreenByPath } from '../../config/routes';
import { useLogout } from '../../features/auth/api/logout';
import { CredentialDialog } from '../../features/temporary-mailbox/components/credential-dialog';
import { refreshVariables } from '../../lib/variables';
import { forgetCredential, setCredentialDialogOpen, useCredentialStore } from '../../state/credential';
import { usePermissionStore, usePermissions } from '../../state/permission';
import { clearToken } from '../../state/session';
import { useSettingsStore } from '../../state/settings';

/** Shown only for a screen the account may not open; its illustration is fetched then. */
const Result = lazy(() => import('antd/es/result'));

/** Frame of the /user area: the screens the caller's permissions allow, who is logged in, logout. */
export function Component() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const permissionData = usePermissionStore((state) => state.permissionData);
  const siteName = useSettingsStore((state) => state.settings.siteName) || DEFAULT_SITE_NAME;
  const allowed = allowedUserScreens(permissions);
  const current = userScreenByPath(pathname);

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

  const menuItems = allowed.map((entry) => ({
    key: entry.path,
    icon: <entry.icon />,
    label: <Link to={entry.path}>{entry.name}</Link>,
  }));

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        breakpoint="lg"
        collapsedWidth={0}
        theme="light"
        style={{ borderRight: '1px solid #f0f0f0' }}
      >
        <Link to={paths.home} style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '20px 24px' }}>
          <MailOutlined style={{ fontSize: 20 }} />
          <Typography.Text strong style={{ fontSize: 16 }}>
            {siteName}
          </Typography.Text>
        </Link>
        <Menu
          mode="inline"
          selectedKeys={current ? [current.path] : []}
          items={menuItems}
          style={{ borderInlineEnd: 0 }}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            background: '#fff',
            padding: '0 24px',
          }}
        >
          <Typography.Title level={5} style={{ margin: 0 }}>
            {current?.name ?? siteName}
          </Typography.Title>
          <Space size="middle">
            <Space size={4}>
              <UserOutlined />
              <Typography.Text data-testid="current-user">{permissionData.name ?? ''}</Typography.Text>
              <Tag color={permissionData.role === 'admin' ? 'gold' : 'blue'}>
                {roleLabel(permissionData.role)}
              </Tag>
            </Space>
            <Button
              icon={<LogoutOutlined />}
              loading={logoutMutation.isPending}
              onClick={() => {
                if (unsavedEmail === null) {
                  logoutMutation.mutate();
                  return;
                }
                // A one-click mailbox is reached again only with its credential: say so first.
                modal.confirm({
                  title: '凭证尚未保存，确定退出？',
                  content: `临时邮箱 ${unsavedEmail} 的凭证还没有复制或下载。退出后，只有用邮箱地址和凭证才能重新登录；凭证丢失则无法再进入这个邮箱。`,
                  okText: '仍然退出',
                  okButtonProps: { danger: true },
                  cancelText: credentialShown ? '先去保存' : '取消',
                  onOk: () => logoutMutation.mutate(),
                  onCancel: () => {
                    if (credentialShown) setCredentialDialogOpen(true);
                  },
                });
              }}
            >
              退出登录
            </Button>
            {credentialShown ? (
              <Button onClick={() => setCredentialDialogOpen(true)} data-testid="show-credential">
                查看凭证
              </Button>
            ) : null}
          </Space>
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          {current && !permissions.includes(current.permission) ? (
            <Suspense fallback={null}>
              <Result status="403" title="没有权限" subTitle="当前账号无权访问此页面，请从左侧菜单选择。" />
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
