import {
  ApiOutlined,
  BookOutlined,
  CreditCardOutlined,
  DashboardOutlined,
  DesktopOutlined,
  FilterOutlined,
  GlobalOutlined,
  HomeOutlined,
  InboxOutlined,
  InfoCircleOutlined,
  LoginOutlined,
  MailOutlined,
  SafetyOutlined,
  SendOutlined,
  SettingOutlined,
  ShareAltOutlined,
  ShopOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Permission, type UserScreen } from '@youju/contract';
import type { ComponentType } from 'react';
import { t } from '../lib/i18n';

/**
 * The route registry. Every screen declares its path, its menu name, its icon,
 * the permission that shows it and whether it needs a login; the router, the guards and the menus all
 * read from here so that they cannot disagree. The names are getters: each read gives the name in the
 * interface's current language (menus and the window title follow a switch), never a text fixed at import.
 */
export interface RouteEntry {
  path: string;
  name: string;
  icon: ComponentType;
  /** permission from the decrypted permissionData that shows the entry; absent = everyone */
  permission?: string;
  requiresLogin: boolean;
}

export interface UserScreenEntry extends RouteEntry {
  screen: UserScreen;
  permission: string;
}

export const paths = {
  root: '/',
  home: '/home',
  use: '/use',
  store: '/store',
  auth: '/auth',
  user: '/user',
} as const;

export const publicRoutes = {
  home: {
    path: paths.home,
    get name() {
      return t('首页');
    },
    icon: HomeOutlined,
    requiresLogin: false,
  },
  use: {
    path: paths.use,
    get name() {
      return t('使用说明');
    },
    icon: BookOutlined,
    requiresLogin: false,
  },
  store: {
    path: paths.store,
    get name() {
      return t('商店');
    },
    icon: ShopOutlined,
    requiresLogin: false,
  },
  /** explicitly marked as not requiring login */
  auth: {
    path: paths.auth,
    get name() {
      return t('登录');
    },
    icon: LoginOutlined,
    requiresLogin: false,
  },
} satisfies Record<string, RouteEntry>;

function userScreen(screen: UserScreen, name: () => string, icon: ComponentType): UserScreenEntry {
  return {
    screen,
    path: `${paths.user}/${screen}`,
    get name() {
      return name();
    },
    icon,
    permission: Permission.menu(screen),
    requiresLogin: true,
  };
}

/**
 * Child screens of /user that exist in this build, in menu order. A screen is listed here only once it
 * is built; the menu shows the ones the caller's permissions allow.
 */
export const userScreens: readonly UserScreenEntry[] = [
  userScreen('inbox', () => t('收件箱'), InboxOutlined),
  userScreen('sent', () => t('已发送'), SendOutlined),
  userScreen('contentFilter', () => t('内容过滤'), FilterOutlined),
  userScreen('sysAccount', () => t('系统账号'), TeamOutlined),
  userScreen('domain', () => t('域名管理'), GlobalOutlined),
  userScreen('emailAccount', () => t('邮箱账号'), MailOutlined),
  userScreen('card', () => t('卡密管理'), CreditCardOutlined),
  userScreen('interface', () => t('接口'), ApiOutlined),
  userScreen('dashboard', () => t('仪表盘'), DashboardOutlined),
  userScreen('setting', () => t('设置'), SettingOutlined),
  userScreen('version', () => t('版本信息'), InfoCircleOutlined),
  userScreen('safe', () => t('安全中心'), SafetyOutlined),
  userScreen('clientSettings', () => t('客户端设置'), DesktopOutlined),
  userScreen('forward', () => t('邮件转发'), ShareAltOutlined),
];

/** /user itself needs a login and lands on the inbox. */
export const userRoute = {
  path: paths.user,
  get name() {
    return t('用户中心');
  },
  icon: InboxOutlined,
  requiresLogin: true,
} satisfies RouteEntry;

/** The registered screen shown at `pathname`, for the window title. */
export function routeByPath(pathname: string): RouteEntry | undefined {
  return [...Object.values(publicRoutes), ...userScreens].find((entry) => entry.path === pathname);
}

export function userScreenByPath(pathname: string): UserScreenEntry | undefined {
  return userScreens.find((entry) => pathname === entry.path || pathname.startsWith(`${entry.path}/`));
}

/** The built /user screens that these permissions show, in menu order. */
export function allowedUserScreens(permissions: readonly string[]): UserScreenEntry[] {
  return userScreens.filter((entry) => permissions.includes(entry.permission));
}
