import type { PersonalSettings } from '@youju/contract';
import { Button, Card, Form, Input } from 'antd';
import { useEffect } from 'react';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useUpdateSettings } from '../api/update-settings';

/** Display name and signature, for every role. */
export function PersonalSettingsForm({ value }: { value: PersonalSettings }) {
  const [form] = Form.useForm<PersonalSettings>();
  const mutation = useUpdateSettings(() => showSuccessMessage(t('个人设置已保存')));
  useEffect(() => form.setFieldsValue(value), [form, value]);
  return (
    <Card title={t('个人设置')}>
      <Form<PersonalSettings>
        form={form}
        layout="vertical"
        name="personal-settings-form"
        initialValues={value}
        onFinish={(personal) => mutation.mutate({ personal })}
        style={{ maxWidth: 560 }}
      >
        <Form.Item
          name="displayName"
          label={t('显示名称')}
          extra={t('发信时显示在发件人地址前')}
          rules={[{ max: 60, message: t('显示名称最多 60 个字符') }]}
        >
          <Input placeholder={t('例如 张三')} />
        </Form.Item>
        <Form.Item
          name="signature"
          label={t('邮件签名')}
          extra={t('写信时自动附在正文末尾')}
          rules={[{ max: 2000, message: t('邮件签名最多 2000 个字符') }]}
        >
          <Input.TextArea rows={4} placeholder={t('例如 张三 | 市场部')} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t('保存个人设置')}
        </Button>
      </Form>
    </Card>
  );
}
