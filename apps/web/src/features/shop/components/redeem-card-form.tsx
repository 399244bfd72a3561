import type { VerCardBody, VerCardData } from '@youju/contract';
import { Button, Form, Input, Result, Select, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useOpenDomains } from '../../../api/get-open-domains';
import { rules } from '../../../config/validation';
import { formatTime } from '../../../lib/dates';
import { t } from '../../../lib/i18n';
import { usePreselectOnly } from '../../../lib/use-preselect-only';
import { useRedeemCard } from '../api/redeem-card';

interface RedeemCardFormProps {
  /**
   * Logs into the mailbox just redeemed with the address and the password just typed (kept in this
   * component's memory only: never in the address, never in storage); absent: no such button.
   */
  onLogin?: (email: string, password: string) => Promise<void>;
}

/** Redeem a card: a new mailbox (or, with that mailbox's password, more time for an existing one). */
export function RedeemCardForm({ onLogin }: RedeemCardFormProps = {}) {
  const [form] = Form.useForm<VerCardBody>();
  const [result, setResult] = useState<VerCardData | null>(null);
  const password = useRef('');
  const [loggingIn, setLoggingIn] = useState(false);
  const domainsQuery = useOpenDomains();
  usePreselectOnly(
    form,
    'domainId',
    domainsQuery.data?.map((domain) => domain.id),
    result === null,
  );
  const redeemMutation = useRedeemCard(setResult);

  if (result) {
    return (
      <Result
        status="success"
        title={result.extended ? t('续期成功') : t('兑换成功')}
        subTitle={
          <>
            {t('邮箱')}{' '}
            <Typography.Text strong data-testid="redeemed-address">
              {result.address}
            </Typography.Text>
            {result.expiresAt ? t('，有效期至 {date}', { date: formatTime(result.expiresAt) }) : ''}
            {t('。')}
            {onLogin ? t('点击下方按钮直接登录，') : ''}
            {t('以后可在登录页选择“邮箱登录”，用这个地址和密码登录。')}
          </>
        }
        extra={[
          onLogin ? (
            <Button
              key="login"
              type="primary"
              loading={loggingIn}
              onClick={async () => {
                setLoggingIn(true);
                try {
                  await onLogin(result.address, password.current);
                  password.current = '';
                } finally {
                  setLoggingIn(false);
                }
              }}
            >
              {t('登录新邮箱')}
            </Button>
          ) : null,
          <Button
            key="again"
            onClick={() => {
              password.current = '';
              setResult(null);
              form.resetFields();
            }}
          >
            {t('继续兑换')}
          </Button>,
        ]}
      />
    );
  }

  return (
    <Form<VerCardBody>
      form={form}
      layout="vertical"
      name="redeem-card-form"
      style={{ maxWidth: 520 }}
      onFinish={(values) => {
        password.current = values.password;
        redeemMutation.mutate({ ...values, code: values.code.trim(), localPart: values.localPart.trim() });
      }}
    >
      <Form.Item name="code" label={t('卡密')} rules={[{ required: true, message: t('请输入卡密') }]}>
        <Input placeholder={t('如 YJ-XXXX-XXXX-XXXX-XXXX')} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="domainId"
        label={t('域名')}
        extra={t('卡密已指定域名时无需选择；未指定域名的卡密可用于任一开放注册的域名')}
      >
        <Select
          allowClear
          placeholder={t('按卡密指定的域名')}
          loading={domainsQuery.isPending}
          options={(domainsQuery.data ?? []).map((domain) => ({ value: domain.id, label: domain.name }))}
        />
      </Form.Item>
      <Form.Item
        name="localPart"
        label={t('邮箱前缀')}
        rules={[{ required: true, message: t('请输入邮箱前缀') }, ...rules.optionalLocalPart]}
        extra={t('新开邮箱请填写未被占用的前缀；为已有邮箱续期请填写它的前缀')}
      >
        <Input placeholder={t('如 zhangsan')} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('密码')}
        rules={rules.password}
        extra={t('新开邮箱：设置登录密码；续期：填写该邮箱的现有密码')}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={redeemMutation.isPending}>
        {t('兑换')}
      </Button>
    </Form>
  );
}
