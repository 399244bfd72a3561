import type { PaySettings, UpdatePaySettingsBody } from '@youju/contract';
import { Alert, Button, Checkbox, Form, Input, InputNumber, Skeleton, Switch } from 'antd';
import { showSuccessMessage } from '../../../lib/feedback';
import { usePaySettings, useUpdatePaySettings } from '../api/pay-settings';

type FormValues = Omit<PaySettings, 'epayKeySet'> & { epayKey?: string };

const typeOptions = [
  { value: 'alipay', label: '支付宝' },
  { value: 'wxpay', label: '微信支付' },
  { value: 'qqpay', label: 'QQ 钱包' },
];

/** Payment settings (administrators): manual confirmation and the EPay gateway. */
export function PaySettingsForm() {
  const settingsQuery = usePaySettings();
  const updateMutation = useUpdatePaySettings(() => showSuccessMessage('支付设置已保存'));
  if (settingsQuery.isPending) return <Skeleton active />;
  if (settingsQuery.isError)
    return <Alert type="error" showIcon title="支付设置读取失败" description={settingsQuery.error.message} />;
  const { epayKeySet, ...initial } = settingsQuery.data;

  const submit = (values: FormValues) => {
    const body: UpdatePaySettingsBody = { ...values, epayKey: values.epayKey ?? '' };
    updateMutation.mutate(body);
  };

  return (
    <Form<FormValues>
      layout="vertical"
      name="pay-settings-form"
      initialValues={initial}
      onFinish={submit}
      style={{ maxWidth: 640 }}
    >
      <Form.Item
        name="manualEnabled"
        label="人工确认收款"
        valuePropName="checked"
        extra="买家下单后线下付款，域名所有者或管理员在“订单”中确认收款后开通邮箱"
      >
        <Switch checkedChildren="开启" unCheckedChildren="关闭" />
      </Form.Item>
      <Form.Item
        name="manualInstructions"
        label="人工付款说明"
        extra="下单成功后展示给买家，例如收款方式和联系方式"
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} />
      </Form.Item>
      <Form.Item
        name="orderTimeoutMinutes"
        label="未付款订单保留时间（分钟）"
        extra="超时未付款的订单自动过期，释放预留的邮箱地址"
      >
        <InputNumber min={5} max={1440} precision={0} style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="epayEnabled" label="易支付在线收款" valuePropName="checked">
        <Switch checkedChildren="开启" unCheckedChildren="关闭" />
      </Form.Item>
      <Form.Item
        name="epayGatewayUrl"
        label="易支付网关地址"
        extra="支付提交地址，如 https://pay.example.com/submit.php"
      >
        <Input placeholder="https://" />
      </Form.Item>
      <Form.Item name="epayMerchantId" label="商户号">
        <Input />
      </Form.Item>
      <Form.Item
        name="epayKey"
        label="商户密钥"
        extra={epayKeySet ? '已设置；留空保持不变，填写则替换' : '尚未设置'}
      >
        <Input.Password
          autoComplete="new-password"
          placeholder={epayKeySet ? '已设置，留空不修改' : '填写商户密钥'}
        />
      </Form.Item>
      <Form.Item name="epayTypes" label="向买家提供的支付方式">
        <Checkbox.Group options={typeOptions} />
      </Form.Item>
      <Form.Item
        name="siteUrl"
        label="站点地址"
        extra="用于生成支付通知地址和支付完成后的返回地址；留空则使用当前访问的地址"
      >
        <Input placeholder="https://mail.example.com" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={updateMutation.isPending}>
        保存
      </Button>
    </Form>
  );
}
