import type { ForwardSetting } from '@youju/contract';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { type ReactNode, useEffect } from 'react';
import { TimeText } from '../../../components/time-text';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useForward, useSetForward } from '../api/forward';

interface ForwardFormValues {
  forwardTo: string;
  enabled: boolean;
  keepCopy: boolean;
}

/** A plain external address: the server checks it again (and refuses this service's own domains). */
const ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

export interface ForwardSettingsViewProps {
  /** the mailbox whose forwarding is shown; null until a system user has chosen one */
  address: string | null;
  /** a system user's addresses to choose from; absent for a mailbox session (its own address) */
  addresses?: string[];
  onAddressChange?: (address: string) => void;
}

function StatusTag({ setting }: { setting: ForwardSetting }) {
  if (!setting.forwardTo) return <Tag>{t('未设置')}</Tag>;
  return setting.enabled ? <Tag color="green">{t('转发中')}</Tag> : <Tag color="orange">{t('已暂停')}</Tag>;
}

function ForwardForm({ setting }: { setting: ForwardSetting }) {
  const [form] = Form.useForm<ForwardFormValues>();
  const save = useSetForward((saved) =>
    showSuccessMessage(
      saved.forwardTo === null
        ? t('已取消邮件转发')
        : saved.enabled
          ? t('已保存，新邮件将转发到该地址')
          : t('已保存，转发已暂停'),
    ),
  );
  useEffect(() => {
    form.setFieldsValue({
      forwardTo: setting.forwardTo ?? '',
      enabled: setting.forwardTo ? setting.enabled : true,
      keepCopy: setting.keepCopy,
    });
  }, [form, setting]);

  const submit = (values: ForwardFormValues) =>
    save.mutate({
      address: setting.address,
      forwardTo: values.forwardTo.trim(),
      enabled: values.enabled,
      keepCopy: values.keepCopy,
    });

  return (
    <Form<ForwardFormValues>
      name="forward"
      form={form}
      layout="vertical"
      initialValues={{ forwardTo: setting.forwardTo ?? '', enabled: true, keepCopy: setting.keepCopy }}
      onValuesChange={() => save.reset()}
      onFinish={submit}
      style={{ maxWidth: 520 }}
    >
      <Form.Item
        name="forwardTo"
        label={t('转发到')}
        extra={t('站外的邮箱地址；本站邮箱之间无需转发')}
        rules={[
          { required: true, whitespace: true, message: t('请输入转发目标邮箱地址') },
          { pattern: ADDRESS, message: t('请输入完整的邮箱地址，例如 name@example.com') },
        ]}
      >
        <Input placeholder="name@example.com" autoComplete="off" />
      </Form.Item>
      <Form.Item name="enabled" label={t('启用转发')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="keepCopy"
        valuePropName="checked"
        extra={t('不保留时，已转发的邮件不会出现在本站收件箱；未能转发的邮件始终保留')}
      >
        <Checkbox>{t('在本站保留一份副本')}</Checkbox>
      </Form.Item>
      {save.isError ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('没有保存')}
          description={save.error.message}
          data-testid="forward-error"
        />
      ) : null}
      <Space>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('保存')}
        </Button>
        {setting.forwardTo ? (
          <Popconfirm
            title={t('取消邮件转发？')}
            description={t('之后收到的邮件只保存在本站')}
            okText={t('取消转发')}
            cancelText={t('再想想')}
            onConfirm={() => save.mutate({ address: setting.address, forwardTo: null })}
          >
            <Button danger>{t('取消转发')}</Button>
          </Popconfirm>
        ) : null}
      </Space>
    </Form>
  );
}

/**
 * 邮件转发: where one mailbox forwards a copy of what it receives, whether it keeps its own copy, and
 * why the latest copy was not forwarded (sending limit, loop, policy).
 */
export function ForwardSettingsView({ address, addresses, onAddressChange }: ForwardSettingsViewProps) {
  const choosing = addresses !== undefined;
  const query = useForward(address);
  const setting = query.data;

  const picker = choosing ? (
    <Select
      showSearch
      aria-label={t('选择邮箱地址')}
      placeholder={t('选择要设置转发的邮箱地址')}
      style={{ width: '100%', maxWidth: 360 }}
      value={address ?? undefined}
      options={addresses.map((item) => ({ value: item, label: item }))}
      onChange={(value: string) => onAddressChange?.(value)}
      notFoundContent={t('还没有邮箱地址')}
    />
  ) : null;

  let body: ReactNode;
  if (address === null || address === '') {
    body = <Alert type="info" showIcon title={t('请先选择一个邮箱地址')} />;
  } else if (query.isPending) {
    body = <Skeleton active />;
  } else if (!setting) {
    body = <Alert type="error" showIcon title={query.error?.message || t('转发设置加载失败，请刷新重试')} />;
  } else {
    body = (
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text>
          <Typography.Text strong>{setting.address}</Typography.Text> <StatusTag setting={setting} />
          {setting.forwardTo ? (
            <Typography.Text type="secondary"> → {setting.forwardTo}</Typography.Text>
          ) : null}
        </Typography.Text>
        {setting.lastSkipped ? (
          <Alert
            type="warning"
            showIcon
            data-testid="forward-skipped"
            title={t('最近有一封邮件没有转发（已保留在本站）')}
            description={
              <>
                {setting.lastSkipped.reason}
                {t('（')}
                <TimeText value={setting.lastSkipped.at} />
                {t('）')}
              </>
            }
          />
        ) : null}
        <ForwardForm setting={setting} />
      </Space>
    );
  }

  return (
    <Card title={t('邮件转发')}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t(
            '收到的每封邮件都会原样转发一份到指定地址，原发件人的签名保持有效。退信、已经转发过的邮件和垃圾邮件不会转发； 转发计入本邮箱的发信频率限制，超出时邮件只保存在本站。',
          )}
        </Typography.Paragraph>
        {picker}
        {body}
      </Space>
    </Card>
  );
}
