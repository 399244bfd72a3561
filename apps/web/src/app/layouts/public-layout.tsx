import MailOutlinedSvg from '@ant-design/icons-svg/es/asn/MailOutlined';
import MenuOutlinedSvg from '@ant-design/icons-svg/es/asn/MenuOutlined';
import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { LanguageSwitch } from '../../components/language-switch';
import { lazyWithAntd } from '../../components/lazy-antd';
import { PlainAlert } from '../../components/plain/alert';
import { PlainButton } from '../../components/plain/button';
import { plainIcon } from '../../components/plain/icon';
import { PlainSpace } from '../../components/plain/space';
import { tokens as token } from '../../components/plain/tokens';
import { Heading } from '../../components/text';
import { siteNameShown } from '../../config/constants';
import { paths, publicRoutes } from '../../config/routes';
import { t } from '../../lib/i18n';
import { useSessionStore } from '../../state/session';
import { useSettingsStore } from '../../state/settings';
import 'virtual:antd-style/vars/Layout.css';
import 'virtual:antd-style/hook/Layout-Layout.css';

const MailOutlined = plainIcon(MailOutlinedSvg);
const MenuOutlined = plainIcon(MenuOutlinedSvg);

const navigation = [publicRoutes.home, publicRoutes.use, publicRoutes.store];

/**
 * The phone's menu drawer, fetched when first opened (with antd's frame: the rest of the page is drawn
 * without antd): most visits to the first page never open it.
 */
const Drawer = lazyWithAntd(() => import('antd/es/drawer'));
/** The Menu's space between an item's icon and its label. */
const ICON_GAP = 10;

/**
 * The links between the public pages, marked like a horizontal antd Menu (the current page in the
 * primary colour, underlined) but plain links: a Menu would bring its overflow and pop-up machinery
 * to the first page of most visits.
 */
function PublicNavigation({ current, vertical = false }: { current: string; vertical?: boolean }) {
  return (
    <nav
      aria-label={t('站点导航')}
      className={vertical ? 'public-navigation-vertical' : 'public-navigation'}
      // global.css shows the row (display: flex) only on wide screens.
      style={{
        display: vertical ? 'flex' : undefined,
        flexDirection: vertical ? 'column' : 'row',
        alignSelf: 'stretch',
        flex: 1,
        minWidth: 0,
      }}
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
              minHeight: vertical ? 48 : undefined,
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

/**
 * Frame of the public pages /home, /use and /store: navigation, site name, announcement. Below antd's
 * lg breakpoint (phones) the links move into a drawer behind a menu button (global.css switches the
 * two without a script, so the first paint is already right). Drawn as antd's Layout, Button, Space
 * and Alert draw themselves (their markup and style sheets) but without antd's runtime
 * (components/plain): it comes with /home, the first page of most visits.
 */
export function Component() {
  const { pathname } = useLocation();
  const settings = useSettingsStore((state) => state.settings);
  const loggedIn = useSessionStore((state) => state.token !== null);
  const siteName = siteNameShown(settings.siteName);
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <div className="ant-layout css-var-youju" style={{ minHeight: '100vh' }}>
      <header
        className="ant-layout-header public-header css-var-youju"
        style={{
          display: 'flex',
          alignItems: 'center',
          background: '#fff',
          borderBottom: '1px solid #f0f0f0',
        }}
      >
        <PlainButton
          type="text"
          className="public-menu-button"
          icon={<MenuOutlined />}
          aria-label={t('打开菜单')}
          aria-expanded={menuOpen}
          onClick={() => {
            setMenuLoaded(true);
            setMenuOpen(true);
          }}
        />
        <Link
          to={paths.home}
          // The whole height of the header is the link: a target a finger finds.
          style={{
            display: 'flex',
            alignItems: 'center',
            alignSelf: 'stretch',
            gap: 8,
            whiteSpace: 'nowrap',
            minWidth: 0,
          }}
        >
          <MailOutlined style={{ fontSize: 22 }} />
          <Heading
            level={4}
            style={{ margin: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {siteName}
          </Heading>
        </Link>
        <PublicNavigation current={pathname} />
        <span className="public-header-spacer" />
        {/* On phones it stands in the drawer instead (global.css): the header has no room for it. */}
        <LanguageSwitch className="public-language-switch" />
        <Link to={loggedIn ? paths.user : paths.auth}>
          <PlainButton type="primary">{loggedIn ? t('进入邮箱') : publicRoutes.auth.name}</PlainButton>
        </Link>
      </header>
      {menuLoaded ? (
        <Suspense fallback={null}>
          <Drawer
            placement="left"
            size={280}
            open={menuOpen}
            onClose={() => setMenuOpen(false)}
            title={siteName}
            rootClassName="menu-drawer"
            styles={{ body: { padding: '8px 0' } }}
          >
            <PublicNavigation current={pathname} vertical />
            <LanguageSwitch style={{ margin: '8px 16px' }} />
          </Drawer>
        </Suspense>
      ) : null}
      <main className="ant-layout-content public-content css-var-youju">
        <PlainSpace
          vertical
          size="large"
          style={{ width: '100%', maxWidth: 1080, margin: '0 auto', display: 'flex' }}
        >
          {settings.announcement ? (
            <PlainAlert type="info" title={t('站点公告')} description={settings.announcement} />
          ) : null}
          <Outlet />
        </PlainSpace>
      </main>
      <footer className="ant-layout-footer css-var-youju" style={{ textAlign: 'center', color: '#8c8c8c' }}>
        {siteName}
        {settings.version ? ` · ${t('版本 {version}', { version: settings.version })}` : ''}
      </footer>
    </div>
  );
}
