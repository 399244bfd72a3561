import ApiOutlinedSvg from '@ant-design/icons-svg/es/asn/ApiOutlined';
import BookOutlinedSvg from '@ant-design/icons-svg/es/asn/BookOutlined';
import CreditCardOutlinedSvg from '@ant-design/icons-svg/es/asn/CreditCardOutlined';
import DashboardOutlinedSvg from '@ant-design/icons-svg/es/asn/DashboardOutlined';
import DesktopOutlinedSvg from '@ant-design/icons-svg/es/asn/DesktopOutlined';
import FilterOutlinedSvg from '@ant-design/icons-svg/es/asn/FilterOutlined';
import GlobalOutlinedSvg from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import HomeOutlinedSvg from '@ant-design/icons-svg/es/asn/HomeOutlined';
import InboxOutlinedSvg from '@ant-design/icons-svg/es/asn/InboxOutlined';
import InfoCircleOutlinedSvg from '@ant-design/icons-svg/es/asn/InfoCircleOutlined';
import LoginOutlinedSvg from '@ant-design/icons-svg/es/asn/LoginOutlined';
import MailOutlinedSvg from '@ant-design/icons-svg/es/asn/MailOutlined';
import SafetyOutlinedSvg from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import SendOutlinedSvg from '@ant-design/icons-svg/es/asn/SendOutlined';
import SettingOutlinedSvg from '@ant-design/icons-svg/es/asn/SettingOutlined';
import ShareAltOutlinedSvg from '@ant-design/icons-svg/es/asn/ShareAltOutlined';
import ShopOutlinedSvg from '@ant-design/icons-svg/es/asn/ShopOutlined';
import TeamOutlinedSvg from '@ant-design/icons-svg/es/asn/TeamOutlined';
import { Permission, type UserScreen } from '@youju/contract';
import type { ComponentType } from 'react';
import { plainIcon } from '../components/plain/icon';
import { t } from '../lib/i18n';

// The menus' icons, drawn without @ant-design/icons' runtime: the registry is part of the first script.
const ApiOutlined = plainIcon(ApiOutlinedSvg);
const BookOutlined = plainIcon(BookOutlinedSvg);
const CreditCardOutlined = plainIcon(CreditCardOutlinedSvg);
const DashboardOutlined = plainIcon(DashboardOutlinedSvg);
const DesktopOutlined = plainIcon(DesktopOutlinedSvg);
const FilterOutlined = plainIcon(FilterOutlinedSvg);
const GlobalOutlined = plainIcon(GlobalOutlinedSvg);
const HomeOutlined = plainIcon(HomeOutlinedSvg);
const InboxOutlined = plainIcon(InboxOutlinedSvg);
const InfoCircleOutlined = plainIcon(InfoCircleOutlinedSvg);
const LoginOutlined = plainIcon(LoginOutlinedSvg);
const MailOutlined = plainIcon(MailOutlinedSvg);
const SafetyOutlined = plainIcon(SafetyOutlinedSvg);
const SendOutlined = plainIcon(SendOutlinedSvg);
const SettingOutlined = plainIcon(SettingOutlinedSvg);
const ShareAltOutlined = plainIcon(ShareAltOutlinedSvg);
const ShopOutlined = plainIcon(ShopOutlinedSvg);
const TeamOutlined = plainIcon(TeamOutlinedSvg);

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
