import { MailOutlined } from '@ant-design/icons';
import { Alert, Button, Layout, Space, theme } from 'antd';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { Heading } from '../../components/text';
import { DEFAULT_SITE_NAME } from '../../config/constants';
import { paths, publicRoutes } from '../../config/routes';
import { useSessionStore } from '../../state/session';
import { useSettingsStore } from '../../state/settings';

const navigation = [publicRoutes.home, publicRoutes.use, publicRoutes.store];
/** The Menu's space between an item's icon and its label. */
const ICON_GAP = 10;

/**
 * The links between the public pages, marked like a horizontal antd Menu (the current page in the
 * primary colour, underlined) but plain links: a Menu would bring its overflow and pop-up machinery
 * to the first page of most visits.
 */
function PublicNavigation({ current }: { current: string }) {
  const { token } = theme.useToken();
  return (
    <nav
      aria-label="站点导航"
      className="public-navigation"
      style={{ display: 'flex', alignSelf: 'stretch', flex: 1, minWidth: 0 }}
    >
      {navigation.map((entry) => {
        const selected = entry.path === current;
        return (
          <Link
            key={entry.path}
            to={entry.path}
            aria-current={selected ? 'page' : undefined}
            style={{
              display: 'flex',
              padding: `0 ${token.padding}px`,
              whiteSpace: 'nowrap',
              color: selected ? token.colorPrimary : token.colorText,
            }}
          >
            {/* The underline spans the label, not the padding, as the Menu's does. */}
            <span
              style={{
                display: 'flex',
                alignItems: 'center',
                gap: ICON_GAP,
                // A shadow, not a border: it takes no room, so the label stays centred.
                boxShadow: selected ? `inset 0 -2px 0 ${token.colorPrimary}` : undefined,
              }}
            >
              <entry.icon />
              {entry.name}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}

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
          <Heading level={4} style={{ margin: 0 }}>
            {siteName}
          </Heading>
        </Link>
        <PublicNavigation current={pathname} />
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
