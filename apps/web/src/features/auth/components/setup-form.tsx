import { KeyOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import type { StartAuthBody } from '@youju/contract';
import { Alert, Button, Form, Input } from 'antd';
import { confirmationField, rules } from '../../../config/validation';
import { t } from '../../../lib/i18n';
import { useStartAuth } from '../api/start-auth';

interface SetupFormProps {
  onAuthenticated: (token: string) => Promise<void>;
}

interface SetupValues extends StartAuthBody {
  confirmPassword: string;
}

/** First-run set-up: creates the first administrator while none exists. */
export function SetupForm({ onAuthenticated }: SetupFormProps) {
  const setupMutation = useStartAuth((data) => onAuthenticated(data.token));
  return (
    <Form<SetupValues>
      name="first-run-setup"
      layout="vertical"
      onFinish={({ setupToken, username, password }) =>
        setupMutation.mutate({ setupToken: setupToken.trim(), username, password })
      }
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('首次使用，请创建管理员账号')}
        description={t(
          '初始化令牌在服务器首次启动时打印在服务器日志中，同时写入数据目录（DATA_DIR）下的 setup-token 文件。只有持有该令牌的人才能完成初始化。',
        )}
      />
      <Form.Item name="setupToken" label={t('初始化令牌')} rules={rules.setupToken}>
        <Input
          prefix={<KeyOutlined />}
          placeholder={t('从服务器日志或 setup-token 文件中复制')}
          autoComplete="off"
        />
      </Form.Item>
      <Form.Item name="username" label={t('管理员用户名')} rules={rules.username}>
        <Input prefix={<UserOutlined />} placeholder={t('3 到 32 位字母或数字')} autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('密码')} rules={rules.password}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('至少 6 位')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item label={t('确认密码')} {...confirmationField('password')}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('再次输入密码')}
          autoComplete="new-password"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={setupMutation.isPending}>
        {t('完成初始化')}
      </Button>
    </Form>
  );
}
