import { Card, Tabs, type TabsProps } from 'antd';
import { useSettingsStore } from '../../../state/settings';
import { MailboxLoginForm } from './mailbox-login-form';
import { RegisterMailboxForm } from './register-mailbox-form';
import { SetupForm } from './setup-form';
import { SystemLoginForm } from './system-login-form';

interface AuthPanelProps {
  /** Called with the new token once a login, registration or set-up succeeded. */
  onAuthenticated: (token: string) => Promise<void>;
}

/** The login screen's tabs; the first-run set-up appears while the service is not initialised. */
export function AuthPanel({ onAuthenticated }: AuthPanelProps) {
  const needsSetup = useSettingsStore((state) => state.settings.initialized === false);
  const items: TabsProps['items'] = [
    { key: 'system', label: '系统账号登录', children: <SystemLoginForm onAuthenticated={onAuthenticated} /> },
    { key: 'mailbox', label: '邮箱登录', children: <MailboxLoginForm onAuthenticated={onAuthenticated} /> },
    {
      key: 'register',
      label: '注册邮箱',
      children: <RegisterMailboxForm onAuthenticated={onAuthenticated} />,
    },
  ];
  if (needsSetup)
    items.unshift({
      key: 'setup',
      label: '初始化',
      children: <SetupForm onAuthenticated={onAuthenticated} />,
    });

  return (
    <Card style={{ width: '100%', maxWidth: 440 }}>
      <Tabs
        key={needsSetup ? 'setup' : 'ready'}
        items={items}
        defaultActiveKey={needsSetup ? 'setup' : 'system'}
        centered
      />
    </Card>
  );
}
