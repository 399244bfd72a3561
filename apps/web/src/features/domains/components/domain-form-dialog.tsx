import type { AddDomainBody, Domain, EditDomainBody } from '@youju/contract';
import { Alert, Checkbox, Form, Input, InputNumber, Switch } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { showSuccessMessage } from '../../../lib/feedback';
import { t, tc } from '../../../lib/i18n';
import { useAddDomain } from '../api/add-domain';
import { useEditDomain } from '../api/edit-domain';

interface DomainFormValues {
  name: string;
  publicRegistration: boolean;
  forSale: boolean;
  /** yuan in the form, fen on the wire */
  priceYuan: number | null;
  /** both free registration and for sale: the owner read the warning */
  confirmFreeAndSale: boolean;
}

interface DomainFormDialogProps {
  /** null: add a domain */
  domain: Domain | null;
  onClose: () => void;
}

function initialValues(domain: Domain | null): DomainFormValues {
  if (!domain)
    return {
      name: '',
      publicRegistration: false,
      forSale: false,
      priceYuan: null,
      confirmFreeAndSale: false,
    };
  return {
    name: domain.displayName,
    publicRegistration: domain.publicRegistration,
    forSale: domain.forSale,
    priceYuan: domain.price > 0 ? domain.price / 100 : null,
    confirmFreeAndSale: domain.publicRegistration && domain.forSale,
  };
}

/** Add or edit a domain: open registration, for sale and price. */
export function DomainFormDialog({ domain, onClose }: DomainFormDialogProps) {
  const [form] = Form.useForm<DomainFormValues>();
  const forSale = Form.useWatch('forSale', form);
  const publicRegistration = Form.useWatch('publicRegistration', form);
  const both = forSale === true && publicRegistration === true;
  const add = useAddDomain((added) => {
    showSuccessMessage(
      added.status === 'pending'
        ? t('已添加域名 {displayName}，请添加 TXT 记录并完成所有权验证', { displayName: added.displayName })
        : t('已添加域名 {displayName}，已生成 DKIM 密钥', { displayName: added.displayName }),
    );
    onClose();
  });
  const edit = useEditDomain((edited) => {
    showSuccessMessage(t('已保存域名 {displayName}', { displayName: edited.displayName }));
    onClose();
  });

  const submit = (values: DomainFormValues) => {
    // Not for sale: the price is kept as it was (the server refuses a sale without one).
    const price = values.forSale ? Math.round((values.priceYuan ?? 0) * 100) : (domain?.price ?? 0);
    const confirm = values.forSale && values.publicRegistration ? { confirmFreeAndSale: true } : {};
    if (domain) {
      const body: EditDomainBody = {
        id: domain.id,
        publicRegistration: values.publicRegistration,
        forSale: values.forSale,
        price,
        ...confirm,
      };
      edit.mutate(body);
    } else {
      const body: AddDomainBody = {
        name: values.name.trim(),
        publicRegistration: values.publicRegistration,
        forSale: values.forSale,
        price,
        ...confirm,
      };
      add.mutate(body);
    }
  };

  return (
    <FormDialog<DomainFormValues>
      open
      title={domain ? t('编辑域名 {displayName}', { displayName: domain.displayName }) : t('添加域名')}
      okText={domain ? t('保存') : t('添加')}
      saving={add.isPending || edit.isPending}
      form={form}
      formProps={{ initialValues: initialValues(domain), onFinish: submit, clearOnDestroy: true }}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('域名')}
        rules={[{ required: true, whitespace: true, message: t('请填写域名') }]}
        extra={t('如 mail.example.com，支持中文域名；添加后会自动生成 DKIM 密钥')}
      >
        <Input disabled={domain !== null} placeholder="example.com" autoComplete="off" />
      </Form.Item>
      <Form.Item name="publicRegistration" label={t('开放注册')} valuePropName="checked">
        <Switch checkedChildren={t('开放')} unCheckedChildren={tc('state', '关闭')} />
      </Form.Item>
      <Form.Item name="forSale" label={t('在商店出售邮箱')} valuePropName="checked">
        <Switch checkedChildren={t('出售')} unCheckedChildren={t('不出售')} />
      </Form.Item>
      {forSale ? (
        <Form.Item
          name="priceYuan"
          label={t('价格（元）')}
          rules={[
            { required: true, message: t('出售邮箱必须设置价格') },
            { type: 'number', min: 0.01, message: t('价格必须大于 0') },
          ]}
          extra={t('买家购买一个邮箱支付的金额')}
        >
          <InputNumber
            min={0.01}
            max={1_000_000}
            precision={2}
            placeholder={t('如 9.90')}
            style={{ width: '100%' }}
          />
        </Form.Item>
      ) : null}
      {both ? (
        <>
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title={t('该域名同时允许免费注册，购买将没有意义')}
            description={t(
              '访客可以在登录页免费注册这个域名的邮箱。通常应关闭“开放注册”再出售；如确需同时开启（例如配合卡密），请勾选下面的确认，商店会向买家注明该域名也可免费注册。',
            )}
          />
          <Form.Item
            name="confirmFreeAndSale"
            valuePropName="checked"
            rules={[
              {
                validator: (_rule, value) =>
                  value
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('请确认同时开放注册和出售，或关闭其中一项'))),
              },
            ]}
          >
            <Checkbox>{t('我已了解，仍然同时开放免费注册和出售')}</Checkbox>
          </Form.Item>
        </>
      ) : null}
    </FormDialog>
  );
}
