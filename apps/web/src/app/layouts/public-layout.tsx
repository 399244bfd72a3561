import { MailOutlined } from '@ant-design/icons';
import { Alert, Button, Layout, Menu, Space, Typography } from 'antd';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { DEFAULT_SITE_NAME } from '../../config/constants';
import { paths, publicRoutes } from '../../config/routes';
import { useSessionStore } from '../../state/session';
import { useSettingsStore } from '../../state/settings';

const navigation = [publicRoutes.home, publicRoutes.use, publicRoutes.store].map((entry) => ({
  key: entry.path,
  icon: <entry.icon />,
  label: <Link to={entry.path}>{entry.name}</Link>,
}));

/** Frame of the public pages /home, /use and /store: navigation, site name, announcement. */
export function Component() {
  const { pathname } = useLocation();
  const settings = useSettingsStore((state) => state.settings);
  const loggedIn = useSessionStore((state) => state.token !== null);
  const siteName = settings.siteName || DEFAULT_SITE_NAME;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 24,
          background: '#fff',
          borderBottom: '1px solid #f0f0f0',
        }}
      >
        <Link to={paths.home} style={{ display: 'flex', alignItems: 'center', gap: 8, whiteSpace: 'nowrap' }}>
          <MailOutlined style={{ fontSize: 22 }} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {siteName}
          </Typography.Title>
        </Link>
        <Menu
          mode="horizontal"
          selectedKeys={[pathname]}
          items={navigation}
          style={{ flex: 1, minWidth: 0, borderBottom: 0 }}
        />
        <Link to={loggedIn ? paths.user : paths.auth}>
          <Button type="primary">{loggedIn ? '进入邮箱' : publicRoutes.auth.name}</Button>
        </Link>
      </Layout.Header>
      <Layout.Content style={{ padding: '24px 16px' }}>
        <Space
          orientation="vertical"
          size="large"
          style={{ width: '100%', maxWidth: 1080, margin: '0 auto', display: 'flex' }}
        >
          {settings.announcement ? (
            <Alert type="info" showIcon title="站点公告" description={settings.announcement} />
          ) : null}
          <Outlet />
        </Space>
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', color: '#8c8c8c' }}>
        {siteName}
        {settings.version ? ` · 版本 ${settings.version}` : ''}
      </Layout.Footer>
    </Layout>
  );
}
