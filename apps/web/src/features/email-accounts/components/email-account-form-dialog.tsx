import type { CreateEmailAccountBody, EditEmailAccountBody, EmailAccount } from '@youju/contract';
import { DatePicker, Form, Input, InputNumber, Select, Switch } from 'antd';
import type { Dayjs } from 'dayjs';
import { useDomains } from '../../../api/get-domains';
import { FormDialog } from '../../../components/form-dialog';
import { rules } from '../../../config/validation';
import { bytesToMegabytes, megabytesToBytes } from '../../../lib/bytes';
import { dayjs } from '../../../lib/dates';
import { showSuccessMessage } from '../../../lib/feedback';
import { usePreselectOnly } from '../../../lib/use-preselect-only';
import { useCreateEmailAccount } from '../api/create-email-account';
import { useEditEmailAccount } from '../api/edit-email-account';

interface FormValues {
  domainId?: number;
  localPart?: string;
  password?: string;
  quotaMb?: number | null;
  expiresAt?: Dayjs | null;
  enabled: boolean;
  note?: string;
}

interface EmailAccountFormDialogProps {
  /** `null`: create a new account; otherwise edit this one */
  account: EmailAccount | null;
  open: boolean;
  onClose: () => void;
}

function initialValues(account: EmailAccount | null): FormValues {
  if (!account) return { enabled: true, quotaMb: null, expiresAt: null, note: '' };
  return {
    quotaMb: bytesToMegabytes(account.quotaBytes),
    expiresAt: account.expiresAt ? dayjs(account.expiresAt) : null,
    enabled: account.enabled,
    note: account.note,
  };
}

/** Create and edit dialog of a mailbox account: password, quota (MB), expiry, enabled, note. */
export function EmailAccountFormDialog({ account, open, onClose }: EmailAccountFormDialogProps) {
  const [form] = Form.useForm<FormValues>();
  const editing = account !== null;
  const domainsQuery = useDomains(open && !editing);
  usePreselectOnly(
    form,
    'domainId',
    domainsQuery.data?.map((domain) => domain.id),
    open && !editing,
  );
  const createMutation = useCreateEmailAccount((created) => {
    showSuccessMessage(`已创建邮箱 ${created.email}`);
    onClose();
  });
  const editMutation = useEditEmailAccount((edited) => {
    showSuccessMessage(`已保存邮箱 ${edited.email}`);
    onClose();
  });

  const submit = (values: FormValues) => {
    const quotaBytes =
      values.quotaMb === null || values.quotaMb === undefined ? undefined : megabytesToBytes(values.quotaMb);
    const expiresAt = values.expiresAt ? values.expiresAt.toISOString() : null;
    if (account) {
      const body: EditEmailAccountBody = {
        id: account.id,
        enabled: values.enabled,
        expiresAt,
        note: values.note ?? '',
        ...(quotaBytes === undefined ? {} : { quotaBytes }),
        ...(values.password ? { password: values.password } : {}),
      };
      editMutation.mutate(body);
    } else {
      const body: CreateEmailAccountBody = {
        domainId: values.domainId ?? 0,
        localPart: (values.localPart ?? '').trim(),
        password: values.password ?? '',
        expiresAt,
        note: values.note ?? '',
        ...(quotaBytes === undefined ? {} : { quotaBytes }),
      };
      createMutation.mutate(body);
    }
  };

  return (
    <FormDialog<FormValues>
      open={open}
      title={editing ? `编辑邮箱 ${account.email}` : '新建邮箱账号'}
      okText={editing ? '保存' : '创建'}
      saving={createMutation.isPending || editMutation.isPending}
      form={form}
      formProps={{
        name: 'email-account-form',
        initialValues: initialValues(account),
        onFinish: submit,
        clearOnDestroy: true,
      }}
      onClose={onClose}
    >
      {!editing && (
        <>
          <Form.Item name="domainId" label="域名" rules={[{ required: true, message: '请选择域名' }]}>
            <Select
              placeholder="选择你的域名"
              loading={domainsQuery.isPending}
              options={(domainsQuery.data ?? []).map((domain) => ({
                value: domain.id,
                label: domain.displayName ?? domain.name,
              }))}
              notFoundContent="还没有域名，请先在域名管理中添加"
            />
          </Form.Item>
          <Form.Item
            name="localPart"
            label="邮箱前缀"
            rules={[{ required: true, message: '请输入邮箱前缀' }, ...rules.optionalLocalPart]}
          >
            <Input placeholder="如 sales" autoComplete="off" />
          </Form.Item>
        </>
      )}
      <Form.Item
        name="password"
        label={editing ? '新密码' : '密码'}
        rules={editing ? rules.optionalPassword : rules.password}
        extra={editing ? '留空则不修改；修改后该邮箱的登录状态全部失效' : undefined}
      >
        <Input.Password placeholder={editing ? '留空则不修改' : '至少 6 位'} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="quotaMb"
        label="容量（MB）"
        extra={editing ? undefined : '留空使用系统默认容量；0 表示不限'}
      >
        <InputNumber min={0} max={1024 * 1024} precision={2} style={{ width: '100%' }} placeholder="默认" />
      </Form.Item>
      <Form.Item name="expiresAt" label="过期时间" extra="留空表示永不过期">
        <DatePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          style={{ width: '100%' }}
          placeholder="永不过期"
        />
      </Form.Item>
      {editing && (
        <Form.Item name="enabled" label="状态" valuePropName="checked" extra="停用后该邮箱不能登录、不再收信">
          <Switch checkedChildren="启用" unCheckedChildren="停用" />
        </Form.Item>
      )}
      <Form.Item name="note" label="备注" rules={[{ max: 200, message: '备注最多 200 字' }]}>
        <Input placeholder="可选，搜索时也会匹配备注" />
      </Form.Item>
    </FormDialog>
  );
}
