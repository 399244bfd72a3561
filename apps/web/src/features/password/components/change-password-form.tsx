import { Button, Card, Form, Input } from 'antd';
import { confirmationField, rules } from '../../../config/validation';
import { t } from '../../../lib/i18n';
import { useChangePassword } from '../api/change-password';

interface FormValues {
  oldPassword?: string;
  newPassword: string;
  confirmPassword: string;
}

interface ChangePasswordFormProps {
  /** the fresh token, for the app layer to store */
  onChanged: (token: string) => void;
  /**
   * A mailbox session: a one-click temporary mailbox that never chose a password sets its first one
   * without the old (the server decides; every other mailbox is still asked for it).
   */
  oldPasswordOptional?: boolean;
}

/** Change the caller's own password; other devices are logged out. */
export function ChangePasswordForm({ onChanged, oldPasswordOptional = false }: ChangePasswordFormProps) {
  const [form] = Form.useForm<FormValues>();
  const mutation = useChangePassword((data) => {
    form.resetFields();
    onChanged(data.token);
  });
  return (
    <Card title={t('修改密码')} style={{ maxWidth: 520 }}>
      <Form<FormValues>
        form={form}
        layout="vertical"
        name="change-password-form"
        onFinish={({ oldPassword, newPassword }) =>
          mutation.mutate(oldPassword ? { oldPassword, newPassword } : { newPassword })
        }
      >
        <Form.Item
          name="oldPassword"
          label={t('原密码')}
          rules={[{ required: !oldPasswordOptional, message: t('请输入原密码') }]}
          {...(oldPasswordOptional
            ? { extra: t('一键获取的临时邮箱第一次设置密码时可以留空（凭证即原密码，也可填写）') }
            : {})}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('新密码')}
          rules={rules.password}
          extra={t('修改后，其他设备上的登录会失效')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item label={t('确认新密码')} {...confirmationField('newPassword')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t('保存新密码')}
        </Button>
      </Form>
    </Card>
  );
}
