import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined } from '@ant-design/icons';
import type { BuyEmailBody, BuyEmailData, SaleDomain } from '@youju/contract';
import { Alert, Button, Form, Input, Radio, Result, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { confirmationField, rules } from '../../../config/validation';
import { t } from '../../../lib/i18n';
import { useBuyEmail } from '../api/buy-email';
import { useCheckAddress } from '../api/check-address';
import { usePayMethods } from '../api/get-pay-methods';
import { useDebounced } from './use-debounced';

interface FormValues extends BuyEmailBody {
  confirmPassword: string;
}

const LOCAL_PART = /^[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,62}[A-Za-z0-9])?$/;
const PHONE = /^\+?[0-9]{5,20}$/;

function yuan(fen: number): string {
  return (fen / 100).toFixed(2);
}

function AvailabilityHint({ domainId, localPart }: { domainId?: number; localPart: string }) {
  const settled = useDebounced(localPart.trim().toLowerCase());
  const valid = LOCAL_PART.test(settled);
  const check = useCheckAddress(valid ? domainId : undefined, valid ? settled : '');
  if (!settled || !domainId || !valid) return null;
  if (check.isFetching && !check.data) {
    return (
      <Typography.Text type="secondary">
        <LoadingOutlined /> {t('正在检查是否可用…')}
      </Typography.Text>
    );
  }
  if (check.isError) return <Typography.Text type="warning">{check.error.message}</Typography.Text>;
  if (!check.data) return null;
  return check.data.available ? (
    <Typography.Text type="success" data-testid="address-available">
      <CheckCircleFilled /> {t('{address} 可以购买', { address: check.data.address })}
    </Typography.Text>
  ) : (
    <Typography.Text type="danger" data-testid="address-unavailable">
      <CloseCircleFilled /> {check.data.reason ?? t('该地址不可用')}
    </Typography.Text>
  );
}

interface BuyMailboxFormProps {
  domains: readonly SaleDomain[];
  /** chosen from the domain list above the form */
  selectedDomainId?: number;
}

/** Buy a mailbox: domain, local part (checked as it is typed), password, phone and pay method. */
export function BuyMailboxForm({ domains, selectedDomainId }: BuyMailboxFormProps) {
  const [form] = Form.useForm<FormValues>();
  const [placed, setPlaced] = useState<(BuyEmailData & { phone: string }) | null>(null);
  const methodsQuery = usePayMethods();
  const domainId = Form.useWatch('domainId', form);
  const localPart = Form.useWatch('localPart', form) ?? '';
  const buyMutation = useBuyEmail((data, body) => {
    if (data.payUrl) {
      window.location.assign(data.payUrl);
      return;
    }
    setPlaced({ ...data, phone: body.phone });
  });

  useEffect(() => {
    if (selectedDomainId !== undefined) form.setFieldValue('domainId', selectedDomainId);
  }, [selectedDomainId, form]);

  const methods = methodsQuery.data ?? [];
  const domain = domains.find((item) => item.id === domainId);
  const firstMethod = methods[0]?.id;
  useEffect(() => {
    // The methods arrive after the form mounted: preselect the first one once they do.
    if (firstMethod && !form.getFieldValue('payMethod')) form.setFieldValue('payMethod', firstMethod);
  }, [firstMethod, form]);

  if (placed) {
    return (
      <Result
        status="info"
        title={t('订单已提交，等待确认')}
        subTitle={
          <Space orientation="vertical">
            <span>
              {t('订单号：')}
              <Typography.Text copyable strong data-testid="order-no">
                {placed.orderNo}
              </Typography.Text>
            </span>
            <span>
              {t('邮箱 {address}，金额 {amount} 元', {
                address: placed.address ?? '',

                amount: yuan(placed.amount),
              })}
            </span>
            {placed.instructions && <span>{placed.instructions}</span>}
            <span>
              {t('付款确认后邮箱自动开通，可用手机号 {phone} 在“查询订单”中查看进度。', {
                phone: placed.phone,
              })}
            </span>
          </Space>
        }
        extra={
          <Button
            onClick={() => {
              setPlaced(null);
              form.resetFields();
            }}
          >
            {t('再买一个')}
          </Button>
        }
      />
    );
  }

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      name="buy-mailbox-form"
      style={{ maxWidth: 520 }}
      initialValues={{ domainId: selectedDomainId ?? domains[0]?.id, payMethod: methods[0]?.id }}
      onFinish={({ confirmPassword: _confirm, ...values }) =>
        buyMutation.mutate({ ...values, localPart: values.localPart.trim(), phone: values.phone.trim() })
      }
    >
      <Form.Item name="domainId" label={t('域名')} rules={[{ required: true, message: t('请选择域名') }]}>
        <Select
          placeholder={t('选择域名')}
          options={domains.map((item) => ({
            value: item.id,
            label: t('{name}（{price} 元）', { name: item.name, price: yuan(item.price) }),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="localPart"
        label={t('邮箱前缀')}
        rules={[{ required: true, message: t('请输入想要的邮箱前缀') }, ...rules.optionalLocalPart]}
        extra={<AvailabilityHint domainId={domainId} localPart={localPart} />}
      >
        <Input
          placeholder={t('如 zhangsan')}
          autoComplete="off"
          suffix={domain ? `@${domain.name}` : undefined}
        />
      </Form.Item>
      <Form.Item name="password" label={t('邮箱密码')} rules={rules.password}>
        <Input.Password placeholder={t('至少 6 位，开通后用它登录')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item label={t('确认密码')} {...confirmationField('password')}>
        <Input.Password placeholder={t('再输入一次')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('手机号')}
        rules={[
          { required: true, message: t('请输入手机号') },
          { pattern: PHONE, message: t('手机号格式不正确') },
        ]}
        extra={t('用于查询订单，不会公开')}
      >
        <Input placeholder={t('如 13800138000')} autoComplete="tel" inputMode="tel" />
      </Form.Item>
      <Form.Item
        name="payMethod"
        label={t('支付方式')}
        rules={[{ required: true, message: t('请选择支付方式') }]}
      >
        {methods.length === 0 ? (
          <Alert type="warning" showIcon title={t('暂无可用的支付方式，请联系站点管理员')} />
        ) : (
          <Radio.Group options={methods.map((method) => ({ value: method.id, label: method.name }))} />
        )}
      </Form.Item>
      {domain && (
        <Typography.Paragraph>
          {t('应付金额：')}
          <Typography.Text strong>{t('{amount} 元', { amount: yuan(domain.price) })}</Typography.Text>
        </Typography.Paragraph>
      )}
      <Button
        type="primary"
        htmlType="submit"
        loading={buyMutation.isPending}
        disabled={methods.length === 0}
      >
        {t('提交订单并付款')}
      </Button>
    </Form>
  );
}
