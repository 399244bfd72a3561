import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginBody } from '@youju/contract';
import { Button, Form, Input } from 'antd';
import { rules } from '../../../config/validation';
import { t } from '../../../lib/i18n';
import { useLogin } from '../api/login';

interface SystemLoginFormProps {
  onAuthenticated: (token: string) => Promise<void>;
}

export function SystemLoginForm({ onAuthenticated }: SystemLoginFormProps) {
  const loginMutation = useLogin((data) => onAuthenticated(data.token));
  return (
    <Form<LoginBody>
      name="system-login"
      layout="vertical"
      onFinish={(values) => loginMutation.mutate(values)}
      autoComplete="on"
    >
      <Form.Item name="username" label={t('用户名')} rules={rules.loginName}>
        <Input prefix={<UserOutlined />} placeholder={t('系统账号用户名')} autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('密码')} rules={rules.loginPassword}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('密码')} autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={loginMutation.isPending}>
        {t('登录')}
      </Button>
    </Form>
  );
}
