import type { AddDomainBody, Domain, EditDomainBody } from '@youju/contract';
import { Form, Input, InputNumber, Switch } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { showSuccessMessage } from '../../../lib/feedback';
import { useAddDomain } from '../api/add-domain';
import { useEditDomain } from '../api/edit-domain';

interface DomainFormValues {
  name: string;
  publicRegistration: boolean;
  forSale: boolean;
  /** yuan in the form, fen on the wire */
  priceYuan: number;
}

interface DomainFormDialogProps {
  /** null: add a domain */
  domain: Domain | null;
  onClose: () => void;
}

function initialValues(domain: Domain | null): DomainFormValues {
  if (!domain) return { name: '', publicRegistration: false, forSale: false, priceYuan: 0 };
  return {
    name: domain.displayName,
    publicRegistration: domain.publicRegistration,
    forSale: domain.forSale,
    priceYuan: domain.price / 100,
  };
}

/** Add or edit a domain: open registration, for sale and price. */
export function DomainFormDialog({ domain, onClose }: DomainFormDialogProps) {
  const [form] = Form.useForm<DomainFormValues>();
  const forSale = Form.useWatch('forSale', form);
  const add = useAddDomain((added) => {
    showSuccessMessage(
      added.status === 'pending'
        ? `已添加域名 ${added.displayName}，请添加 TXT 记录并完成所有权验证`
        : `已添加域名 ${added.displayName}，已生成 DKIM 密钥`,
    );
    onClose();
  });
  const edit = useEditDomain((edited) => {
    showSuccessMessage(`已保存域名 ${edited.displayName}`);
    onClose();
  });

  const submit = (values: DomainFormValues) => {
    const price = Math.round((values.priceYuan ?? 0) * 100);
    if (domain) {
      const body: EditDomainBody = {
        id: domain.id,
        publicRegistration: values.publicRegistration,
        forSale: values.forSale,
        price,
      };
      edit.mutate(body);
    } else {
      const body: AddDomainBody = {
        name: values.name.trim(),
        publicRegistration: values.publicRegistration,
        forSale: values.forSale,
        price,
      };
      add.mutate(body);
    }
  };

  return (
    <FormDialog<DomainFormValues>
      open
      title={domain ? `编辑域名 ${domain.displayName}` : '添加域名'}
      okText={domain ? '保存' : '添加'}
      saving={add.isPending || edit.isPending}
      form={form}
      formProps={{ initialValues: initialValues(domain), onFinish: submit, clearOnDestroy: true }}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label="域名"
        rules={[{ required: true, whitespace: true, message: '请填写域名' }]}
        extra="如 mail.example.com，支持中文域名；添加后会自动生成 DKIM 密钥"
      >
        <Input disabled={domain !== null} placeholder="example.com" autoComplete="off" />
      </Form.Item>
      <Form.Item name="publicRegistration" label="开放注册" valuePropName="checked">
        <Switch checkedChildren="开放" unCheckedChildren="关闭" />
      </Form.Item>
      <Form.Item name="forSale" label="在商店出售邮箱" valuePropName="checked">
        <Switch checkedChildren="出售" unCheckedChildren="不出售" />
      </Form.Item>
      <Form.Item name="priceYuan" label="价格（元）" hidden={!forSale}>
        <InputNumber min={0} max={1_000_000} precision={2} style={{ width: '100%' }} />
      </Form.Item>
    </FormDialog>
  );
}
