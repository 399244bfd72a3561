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

/**
 * The route registry. Every screen declares its path, its Chinese menu name, its icon,
 * the permission that shows it and whether it needs a login; the router, the guards and the menus all
 * read from here so that they cannot disagree.
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
  home: { path: paths.home, name: '首页', icon: HomeOutlined, requiresLogin: false },
  use: { path: paths.use, name: '使用说明', icon: BookOutlined, requiresLogin: false },
  store: { path: paths.store, name: '商店', icon: ShopOutlined, requiresLogin: false },
  /** explicitly marked as not requiring login */
  auth: { path: paths.auth, name: '登录', icon: LoginOutlined, requiresLogin: false },
} satisfies Record<string, RouteEntry>;

function userScreen(screen: UserScreen, name: string, icon: ComponentType): UserScreenEntry {
  return {
    screen,
    path: `${paths.user}/${screen}`,
    name,
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
  userScreen('inbox', '收件箱', InboxOutlined),
  userScreen('sent', '已发送', SendOutlined),
  userScreen('contentFilter', '内容过滤', FilterOutlined),
  userScreen('sysAccount', '系统账号', TeamOutlined),
  userScreen('domain', '域名管理', GlobalOutlined),
  userScreen('emailAccount', '邮箱账号', MailOutlined),
  userScreen('card', '卡密管理', CreditCardOutlined),
  userScreen('interface', '接口', ApiOutlined),
  userScreen('dashboard', '仪表盘', DashboardOutlined),
  userScreen('setting', '设置', SettingOutlined),
  userScreen('version', '版本信息', InfoCircleOutlined),
  userScreen('safe', '安全中心', SafetyOutlined),
  userScreen('clientSettings', '客户端设置', DesktopOutlined),
  userScreen('forward', '邮件转发', ShareAltOutlined),
];

/** /user itself needs a login and lands on the inbox. */
export const userRoute = {
  path: paths.user,
  name: '用户中心',
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
