import type { CreatedWebhook, Webhook, WebhookEvent } from '@youju/contract';
import { Alert, Checkbox, Form, Input, Modal } from 'antd';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useAddWebhook, useEditWebhook } from '../api/change-webhooks';

interface WebhookFormValues {
  url: string;
  events: WebhookEvent[];
  address?: string;
  secret?: string;
}

/** The events to choose from, in the current language (built when called, never at import). */
const eventOptions = (): { value: WebhookEvent; label: string }[] => [
  { value: 'mail.received', label: t('新邮件（mail.received）') },
  { value: 'order.created', label: t('新订单（order.created，你的域名在商店有人下单）') },
];

interface WebhookFormDialogProps {
  /** the webhook to edit; absent to add one */
  webhook?: Webhook;
  onClose: () => void;
  /** after adding: the new webhook with its secret, shown once */
  onCreated?: (webhook: CreatedWebhook) => void;
}

/** 添加 / 编辑 Webhook: the address to call, an optional address filter and (when adding) a secret. */
export function WebhookFormDialog({ webhook, onClose, onCreated }: WebhookFormDialogProps) {
  const [form] = Form.useForm<WebhookFormValues>();
  const add = useAddWebhook((created) => {
    onCreated?.(created);
    onClose();
  });
  const edit = useEditWebhook(
    () => {
      showSuccessMessage(t('已保存 Webhook'));
      onClose();
    },
    { silent: true },
  );
  const mutation = webhook ? edit : add;

  const submit = (values: WebhookFormValues) => {
    const address = values.address?.trim() ? values.address.trim() : null;
    if (webhook) edit.mutate({ id: webhook.id, url: values.url.trim(), events: values.events, address });
    else
      add.mutate({
        url: values.url.trim(),
        events: values.events,
        address,
        ...(values.secret?.trim() ? { secret: values.secret.trim() } : {}),
      });
  };

  return (
    <Modal
      open
      title={webhook ? t('编辑 Webhook') : t('添加 Webhook')}
      okText={webhook ? t('保存') : t('添加')}
      cancelText={t('取消')}
      okButtonProps={{ loading: mutation.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<WebhookFormValues>
        name="webhook-form"
        form={form}
        layout="vertical"
        initialValues={{
          url: webhook?.url ?? '',
          events: webhook?.events ?? ['mail.received'],
          address: webhook?.address ?? '',
        }}
        onValuesChange={() => mutation.reset()}
        onFinish={submit}
      >
        <Form.Item
          name="url"
          label={t('回调地址')}
          extra={t('所选事件发生时向这个地址 POST JSON；只支持 http:// 和 https://，不能是本机或内网地址')}
          rules={[
            { required: true, whitespace: true, message: t('请输入回调地址') },
            { pattern: /^https?:\/\/\S+$/i, message: t('请输入以 http:// 或 https:// 开头的完整地址') },
            { max: 2000, message: t('回调地址最多 2000 个字符') },
          ]}
        >
          <Input placeholder="https://example.com/youju-webhook" inputMode="url" />
        </Form.Item>
        <Form.Item
          name="events"
          label={t('推送的事件')}
          rules={[{ required: true, type: 'array', min: 1, message: t('请至少选择一个事件') }]}
        >
          <Checkbox.Group options={eventOptions()} />
        </Form.Item>
        <Form.Item name="address" label={t('只推送这个邮箱')} extra={t('留空则推送你名下所有邮箱收到的邮件')}>
          <Input placeholder={t('例如 code@你的域名')} inputMode="email" />
        </Form.Item>
        {webhook ? null : (
          <Form.Item
            name="secret"
            label={t('签名密钥（可选）')}
            extra={t('留空将自动生成；至少 16 个字符。密钥只在添加后显示一次')}
            rules={[{ min: 16, message: t('签名密钥至少 16 个字符') }]}
          >
            <Input.Password placeholder={t('留空自动生成')} autoComplete="new-password" />
          </Form.Item>
        )}
        {mutation.isError ? (
          <Alert
            type="error"
            showIcon
            title={webhook ? t('没有保存') : t('Webhook 未添加')}
            description={mutation.error.message}
            data-testid="webhook-error"
          />
        ) : null}
      </Form>
    </Modal>
  );
}
