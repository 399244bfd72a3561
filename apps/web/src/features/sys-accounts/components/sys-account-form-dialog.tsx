import type { CreateSysAccountBody, EditSysAccountBody, SysAccount, SystemRole } from '@youju/contract';
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { roleLabels } from '../../../config/labels';
import { rules } from '../../../config/validation';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useCreateSysAccount } from '../api/create-sys-account';
import { useEditSysAccount } from '../api/edit-sys-account';

interface SysAccountFormValues {
  username: string;
  password?: string;
  role: SystemRole;
  enabled: boolean;
  maxDomains: number;
  maxMailboxes: number;
}

interface SysAccountFormDialogProps {
  /** `null`: create a new account; otherwise edit this one */
  account: SysAccount | null;
  open: boolean;
  onClose: () => void;
}

const roleOptions = () =>
  (['user', 'admin'] as const).map((role) => ({ value: role, label: roleLabels()[role] }));

function initialValues(account: SysAccount | null): SysAccountFormValues {
  if (!account) return { username: '', role: 'user', enabled: true, maxDomains: 0, maxMailboxes: 0 };
  const { username, role, enabled, maxDomains, maxMailboxes } = account;
  return { username, role, enabled, maxDomains, maxMailboxes };
}

function toCreateBody(values: SysAccountFormValues): CreateSysAccountBody {
  const { username, password = '', role, maxDomains, maxMailboxes } = values;
  return { username: username.trim(), password, role, maxDomains, maxMailboxes };
}

function toEditBody(id: number, values: SysAccountFormValues): EditSysAccountBody {
  const { password, role, enabled, maxDomains, maxMailboxes } = values;
  return { id, role, enabled, maxDomains, maxMailboxes, ...(password ? { password } : {}) };
}

/** Create and edit dialog of a system account; 0 as a limit means no limit. */
export function SysAccountFormDialog({ account, open, onClose }: SysAccountFormDialogProps) {
  const [form] = Form.useForm<SysAccountFormValues>();
  const editing = account !== null;
  const createMutation = useCreateSysAccount((created) => {
    showSuccessMessage(t('已创建账号 {username}', { username: created.username }));
    onClose();
  });
  const editMutation = useEditSysAccount((edited) => {
    showSuccessMessage(t('已保存账号 {username}', { username: edited.username }));
    onClose();
  });

  const submit = (values: SysAccountFormValues) => {
    if (account) editMutation.mutate(toEditBody(account.id, values));
    else createMutation.mutate(toCreateBody(values));
  };

  return (
    <FormDialog<SysAccountFormValues>
      open={open}
      title={editing ? t('编辑账号 {username}', { username: account.username }) : t('新建系统账号')}
      okText={editing ? t('保存') : t('创建')}
      saving={createMutation.isPending || editMutation.isPending}
      form={form}
      formProps={{ name: 'sys-account', initialValues: initialValues(account), onFinish: submit }}
      onClose={onClose}
    >
      <Form.Item name="username" label={t('用户名')} rules={editing ? [] : rules.username}>
        <Input
          disabled={editing}
          placeholder={t('3 到 32 位字母、数字、下划线、点或短横线')}
          autoComplete="off"
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={editing ? t('新密码') : t('密码')}
        rules={editing ? rules.optionalPassword : rules.password}
        extra={editing ? t('留空则不修改密码') : undefined}
      >
        <Input.Password
          placeholder={editing ? t('留空则不修改') : t('至少 6 位')}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item name="role" label={t('角色')} rules={[{ required: true, message: t('请选择角色') }]}>
        <Select options={roleOptions()} />
      </Form.Item>
      <Form.Item name="maxDomains" label={t('域名数量上限')} extra={t('0 表示不限')}>
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="maxMailboxes" label={t('邮箱数量上限')} extra={t('0 表示不限')}>
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      {editing && (
        <Form.Item name="enabled" label={t('启用')} valuePropName="checked">
          <Switch checkedChildren={t('启用')} unCheckedChildren={t('停用')} />
        </Form.Item>
      )}
    </FormDialog>
  );
}
