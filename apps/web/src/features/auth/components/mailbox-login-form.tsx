import { LockOutlined, MailOutlined } from '@ant-design/icons';
import type { LoginEmailBody } from '@youju/contract';
import { Button, Form, Input } from 'antd';
import { rules } from '../../../config/validation';
import { t } from '../../../lib/i18n';
import { useLoginEmail } from '../api/login-email';

interface MailboxLoginFormProps {
  onAuthenticated: (token: string) => Promise<void>;
}

export function MailboxLoginForm({ onAuthenticated }: MailboxLoginFormProps) {
  const loginMutation = useLoginEmail((data) => onAuthenticated(data.token));
  return (
    <Form<LoginEmailBody>
      name="mailbox-login"
      layout="vertical"
      onFinish={(values) => loginMutation.mutate(values)}
      autoComplete="on"
    >
      <Form.Item name="email" label={t('邮箱地址')} rules={rules.email}>
        <Input prefix={<MailOutlined />} placeholder={t('完整的邮箱地址')} autoComplete="email" />
      </Form.Item>
      <Form.Item name="password" label={t('密码')} rules={rules.loginPassword}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('邮箱密码')}
          autoComplete="current-password"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={loginMutation.isPending}>
        {t('登录邮箱')}
      </Button>
    </Form>
  );
}
