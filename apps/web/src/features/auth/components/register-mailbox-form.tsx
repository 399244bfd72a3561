import { LockOutlined } from '@ant-design/icons';
import type { RegEmailBody, RegEmailData } from '@youju/contract';
import { Alert, Button, Empty, Form, Input, Select } from 'antd';
import { useOpenDomains } from '../../../api/get-open-domains';
import { rules } from '../../../config/validation';
import { formatTime } from '../../../lib/dates';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { usePreselectOnly } from '../../../lib/use-preselect-only';
import { useSettingsStore } from '../../../state/settings';
import { useRegisterEmail } from '../api/register-email';

interface RegisterMailboxFormProps {
  onAuthenticated: (token: string) => Promise<void>;
}

interface RegisterValues {
  domainId?: number;
  localPart?: string;
  password?: string;
}

function successText(data: RegEmailData): string {
  return data.expiresAt
    ? t('邮箱 {email} 注册成功，有效期至 {date}', { email: data.email, date: formatTime(data.expiresAt) })
    : t('邮箱 {email} 注册成功', { email: data.email });
}

/** Empty optional fields are left out, so the server picks a random name or makes the mailbox temporary. */
function toRequest(values: RegisterValues): RegEmailBody {
  const body: RegEmailBody = { domainId: values.domainId as number };
  const localPart = values.localPart?.trim();
  if (localPart) body.localPart = localPart;
  if (values.password) body.password = values.password;
  return body;
}

export function RegisterMailboxForm({ onAuthenticated }: RegisterMailboxFormProps) {
  const registrationOpen = useSettingsStore((state) => state.settings.registrationOpen);
  const domainsQuery = useOpenDomains(registrationOpen !== false);
  const registerMutation = useRegisterEmail(async (data) => {
    showSuccessMessage(successText(data));
    await onAuthenticated(data.token);
  });
  const [form] = Form.useForm<RegisterValues>();
  const domainId = Form.useWatch('domainId', form);
  const domains = domainsQuery.data ?? [];
  usePreselectOnly(
    form,
    'domainId',
    domainsQuery.data?.map((domain) => domain.id),
  );
  const domainName = domains.find((domain) => domain.id === domainId)?.name;

  if (registrationOpen === false) {
    return (
      <Alert
        type="info"
        showIcon
        title={t('本站当前未开放注册')}
        description={t('请使用已有的邮箱或系统账号登录。')}
      />
    );
  }
  if (domainsQuery.isSuccess && domains.length === 0) {
    return <Empty description={t('暂无开放注册的域名，请联系站点管理员。')} />;
  }

  return (
    <Form<RegisterValues>
      name="register-mailbox"
      form={form}
      layout="vertical"
      onFinish={(values) => registerMutation.mutate(toRequest(values))}
    >
      <Form.Item name="domainId" label={t('域名')} rules={[{ required: true, message: t('请选择域名') }]}>
        <Select
          placeholder={t('选择邮箱域名')}
          loading={domainsQuery.isPending}
          options={domains.map((domain) => ({ value: domain.id, label: domain.name }))}
          notFoundContent={t('暂无开放注册的域名')}
        />
      </Form.Item>
      <Form.Item
        name="localPart"
        label={t('邮箱前缀')}
        rules={rules.optionalLocalPart}
        extra={t('留空则随机生成')}
      >
        <Input placeholder={t('例如 zhangsan')} suffix={domainName ? `@${domainName}` : undefined} />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('密码')}
        rules={rules.optionalPassword}
        extra={t('设置密码后可随时用邮箱地址和密码登录')}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('留空则创建临时邮箱')}
          autoComplete="new-password"
        />
      </Form.Item>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('不设置密码将得到临时邮箱')}
        description={t(
          '临时邮箱只能通过本次注册得到的登录凭证进入：退出登录或清除浏览器数据后将无法再次登录，到期后会被自动删除。',
        )}
      />
      <Button type="primary" htmlType="submit" block loading={registerMutation.isPending}>
        {t('注册邮箱')}
      </Button>
    </Form>
  );
}
