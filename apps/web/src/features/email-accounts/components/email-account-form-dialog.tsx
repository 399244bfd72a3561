import type { CreateEmailAccountBody, EditEmailAccountBody, EmailAccount } from '@youju/contract';
import { DatePicker, Form, Input, InputNumber, Select, Switch } from 'antd';
import type { Dayjs } from 'dayjs';
import { useDomains } from '../../../api/get-domains';
import { FormDialog } from '../../../components/form-dialog';
import { rules } from '../../../config/validation';
import { bytesToMegabytes, megabytesToBytes } from '../../../lib/bytes';
import { dayjs } from '../../../lib/dates';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
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
    showSuccessMessage(t('已创建邮箱 {email}', { email: created.email }));
    onClose();
  });
  const editMutation = useEditEmailAccount((edited) => {
    showSuccessMessage(t('已保存邮箱 {email}', { email: edited.email }));
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
      title={editing ? t('编辑邮箱 {email}', { email: account.email }) : t('新建邮箱账号')}
      okText={editing ? t('保存') : t('创建')}
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
          <Form.Item name="domainId" label={t('域名')} rules={[{ required: true, message: t('请选择域名') }]}>
            <Select
              placeholder={t('选择你的域名')}
              loading={domainsQuery.isPending}
              options={(domainsQuery.data ?? []).map((domain) => ({
                value: domain.id,
                label: domain.displayName ?? domain.name,
              }))}
              notFoundContent={t('还没有域名，请先在域名管理中添加')}
            />
          </Form.Item>
          <Form.Item
            name="localPart"
            label={t('邮箱前缀')}
            rules={[{ required: true, message: t('请输入邮箱前缀') }, ...rules.optionalLocalPart]}
          >
            <Input placeholder={t('如 sales')} autoComplete="off" />
          </Form.Item>
        </>
      )}
      <Form.Item
        name="password"
        label={editing ? t('新密码') : t('密码')}
        rules={editing ? rules.optionalPassword : rules.password}
        extra={editing ? t('留空则不修改；修改后该邮箱的登录状态全部失效') : undefined}
      >
        <Input.Password
          placeholder={editing ? t('留空则不修改') : t('至少 6 位')}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item
        name="quotaMb"
        label={t('容量（MB）')}
        extra={editing ? undefined : t('留空使用系统默认容量；0 表示不限')}
      >
        <InputNumber
          min={0}
          max={1024 * 1024}
          precision={2}
          style={{ width: '100%' }}
          placeholder={t('默认')}
        />
      </Form.Item>
      <Form.Item name="expiresAt" label={t('过期时间')} extra={t('留空表示永不过期')}>
        <DatePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          style={{ width: '100%' }}
          placeholder={t('永不过期')}
        />
      </Form.Item>
      {editing && (
        <Form.Item
          name="enabled"
          label={t('状态')}
          valuePropName="checked"
          extra={t('停用后该邮箱不能登录、不再收信')}
        >
          <Switch checkedChildren={t('启用')} unCheckedChildren={t('停用')} />
        </Form.Item>
      )}
      <Form.Item name="note" label={t('备注')} rules={[{ max: 200, message: t('备注最多 200 字') }]}>
        <Input placeholder={t('可选，搜索时也会匹配备注')} />
      </Form.Item>
    </FormDialog>
  );
}
