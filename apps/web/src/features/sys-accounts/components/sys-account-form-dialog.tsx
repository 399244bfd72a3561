import type { CreateSysAccountBody, EditSysAccountBody, SysAccount, SystemRole } from '@youju/contract';
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { roleLabels } from '../../../config/labels';
import { rules } from '../../../config/validation';
import { showSuccessMessage } from '../../../lib/feedback';
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
    showSuccessMessage(`已创建账号 ${created.username}`);
    onClose();
  });
  const editMutation = useEditSysAccount((edited) => {
    showSuccessMessage(`已保存账号 ${edited.username}`);
    onClose();
  });

  const submit = (values: SysAccountFormValues) => {
    if (account) editMutation.mutate(toEditBody(account.id, values));
    else createMutation.mutate(toCreateBody(values));
  };

  return (
    <FormDialog<SysAccountFormValues>
      open={open}
      title={editing ? `编辑账号 ${account.username}` : '新建系统账号'}
      okText={editing ? '保存' : '创建'}
      saving={createMutation.isPending || editMutation.isPending}
      form={form}
      formProps={{ name: 'sys-account', initialValues: initialValues(account), onFinish: submit }}
      onClose={onClose}
    >
      <Form.Item name="username" label="用户名" rules={editing ? [] : rules.username}>
        <Input disabled={editing} placeholder="3 到 32 位字母、数字、下划线、点或短横线" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="password"
        label={editing ? '新密码' : '密码'}
        rules={editing ? rules.optionalPassword : rules.password}
        extra={editing ? '留空则不修改密码' : undefined}
      >
        <Input.Password placeholder={editing ? '留空则不修改' : '至少 6 位'} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="role" label="角色" rules={[{ required: true, message: '请选择角色' }]}>
        <Select options={roleOptions()} />
      </Form.Item>
      <Form.Item name="maxDomains" label="域名数量上限" extra="0 表示不限">
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="maxMailboxes" label="邮箱数量上限" extra="0 表示不限">
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      {editing && (
        <Form.Item name="enabled" label="启用" valuePropName="checked">
          <Switch checkedChildren="启用" unCheckedChildren="停用" />
        </Form.Item>
      )}
    </FormDialog>
  );
}
