import { Card, Tabs, type TabsProps } from 'antd';
import { t } from '../../../lib/i18n';
import { readStoredText, writeStoredText } from '../../../state/local-storage';
import { useSettingsStore } from '../../../state/settings';
import { MailboxLoginForm } from './mailbox-login-form';
import { RegisterMailboxForm } from './register-mailbox-form';
import { SetupForm } from './setup-form';
import { SystemLoginForm } from './system-login-form';

/**
 * The tab of the last successful login in this browser (never a name or a password): a mailbox
 * user comes back to 邮箱登录, an administrator to 系统账号登录. A registration counts as the
 * mailbox tab, since that is how the new mailbox logs in next time.
 */
export const LAST_AUTH_TAB_KEY = 'auth-tab';
const TAB_KEYS = ['system', 'mailbox', 'register'] as const;
type TabKey = (typeof TAB_KEYS)[number];

function isTabKey(value: string | null | undefined): value is TabKey {
  return TAB_KEYS.includes(value as TabKey);
}

/** Remembers `tab` as the one to open next time (the store's 登录新邮箱 uses it too). */
export function rememberAuthTab(tab: 'system' | 'mailbox'): void {
  writeStoredText(LAST_AUTH_TAB_KEY, tab);
}

interface AuthPanelProps {
  /** Called with the new token once a login, registration or set-up succeeded. */
  onAuthenticated: (token: string) => Promise<void>;
  /** a tab asked for in the address (`?tab=`), before the remembered one */
  requestedTab?: string | null;
}

/**
 * The login screen's tabs, opening on the one that fits: set-up while the service is not initialised,
 * else the tab the address asks for, else the last one used successfully here, else 系统账号登录.
 */
export function AuthPanel({ onAuthenticated, requestedTab }: AuthPanelProps) {
  const needsSetup = useSettingsStore((state) => state.settings.initialized === false);
  const remembered = readStoredText(LAST_AUTH_TAB_KEY);
  const first: TabKey = isTabKey(requestedTab) ? requestedTab : isTabKey(remembered) ? remembered : 'system';
  const after = (tab: 'system' | 'mailbox') => async (token: string) => {
    rememberAuthTab(tab);
    await onAuthenticated(token);
  };
  const items: TabsProps['items'] = [
    {
      key: 'system',
      label: t('系统账号登录'),
      children: <SystemLoginForm onAuthenticated={after('system')} />,
    },
    {
      key: 'mailbox',
      label: t('邮箱登录'),
      children: <MailboxLoginForm onAuthenticated={after('mailbox')} />,
    },
    {
      key: 'register',
      label: t('注册邮箱'),
      children: <RegisterMailboxForm onAuthenticated={after('mailbox')} />,
    },
  ];
  if (needsSetup)
    items.unshift({
      key: 'setup',
      label: t('初始化'),
      children: <SetupForm onAuthenticated={after('system')} />,
    });

  return (
    <Card style={{ width: '100%', maxWidth: 440 }}>
      <Tabs
        key={needsSetup ? 'setup' : 'ready'}
        items={items}
        defaultActiveKey={needsSetup ? 'setup' : first}
        centered
      />
    </Card>
  );
}
