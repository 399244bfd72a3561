/**
 * Who calls the API: `anonymous` (no login), `mailbox` (logged in with loginEmail or regEmail; reaches
 * only its own mail), `user` (a system account via login; sees and changes only what it owns: its
 * domains, their addresses and mailboxes, mail, cards, filters, orders) and `admin` (a system account
 * that sees everything). docs/api.md lists which role may make each call.
 */
export const Roles = ['anonymous', 'mailbox', 'user', 'admin'] as const;
export type Role = (typeof Roles)[number];

/** Roles a system account can hold. */
export const SystemRoles = ['admin', 'user'] as const;
export type SystemRole = (typeof SystemRoles)[number];

/**
 * Screens under /user (the web client's routes /user/<screen>). A permission `menu:<screen>` shows
 * that screen's menu entry.
 */
export const UserScreens = [
  'inbox',
  'sent',
  'contentFilter',
  'emailAccount',
  'sysAccount',
  'card',
  'interface',
  'domain',
  'dashboard',
  'setting',
  'version',
  'safe',
  'clientSettings',
  'forward',
] as const;
export type UserScreen = (typeof UserScreens)[number];

export const Permission = {
  menu: (screen: UserScreen) => `menu:${screen}` as const,
  /** edit system-wide settings */
  systemSettings: 'settings:system',
  /** manage the IP blacklist */
  firewall: 'waf:manage',
  /** reload TLS certificates */
  certificates: 'certificates:reload',
  /** manage system accounts */
  systemAccounts: 'admin:accounts',
} as const;

const mailboxScreens: UserScreen[] = ['inbox', 'sent', 'setting', 'clientSettings', 'forward'];
const userScreens: UserScreen[] = UserScreens.filter((screen) => screen !== 'sysAccount');

/**
 * What each role may see. The server enforces every permission itself; this list only tells the
 * client which menus and actions to show (it travels in the encrypted `permissionData`, whose key
 * ships inside the client).
 */
export function permissionsFor(role: Role): string[] {
  switch (role) {
    case 'anonymous':
      return [];
    case 'mailbox':
      return mailboxScreens.map(Permission.menu);
    case 'user':
      return userScreens.map(Permission.menu);
    case 'admin':
      return [
        ...UserScreens.map(Permission.menu),
        Permission.systemSettings,
        Permission.firewall,
        Permission.certificates,
        Permission.systemAccounts,
      ];
  }
}

/** The decrypted `permissionData` of getVar. */
export interface PermissionData {
  role: Role;
  permissions: string[];
  /** system account name or mailbox address of the caller, when logged in */
  name?: string;
}
