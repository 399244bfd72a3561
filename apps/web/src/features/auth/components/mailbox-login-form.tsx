import { LockOutlined, MailOutlined } from '@ant-design/icons';
import type { LoginEmailBody } from '@youju/contract';
import { Button, Form, Input } from 'antd';
import { rules } from '../../../config/validation';
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
      <Form.Item name="email" label="邮箱地址" rules={rules.email}>
        <Input prefix={<MailOutlined />} placeholder="完整的邮箱地址" autoComplete="email" />
      </Form.Item>
      <Form.Item name="password" label="密码" rules={rules.loginPassword}>
        <Input.Password prefix={<LockOutlined />} placeholder="邮箱密码" autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={loginMutation.isPending}>
        登录邮箱
      </Button>
    </Form>
  );
}
