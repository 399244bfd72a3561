import type { TelegramSettingsInput } from '@youju/contract';
import { Alert, Button, Card, Form, Input, Skeleton, Switch, Typography } from 'antd';
import { TimeText } from '../../../components/time-text';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useSetTelegram, useTelegram } from '../api/telegram';

interface TelegramFormValues {
  botToken?: string;
  chatId: string;
  enabled: boolean;
}

/** /user/interface: new mail as Telegram messages (sender, subject, code, link). */
export function TelegramCard() {
  const query = useTelegram();
  const [form] = Form.useForm<TelegramFormValues>();
  const save = useSetTelegram(() => {
    showSuccessMessage(
      form.getFieldValue('enabled')
        ? t('已保存，测试消息已发送到 Telegram')
        : t('已保存，Telegram 通知已关闭'),
    );
    form.setFieldValue('botToken', '');
  });
  if (query.isPending) return <Skeleton active />;
  const current = query.data;

  const submit = (values: TelegramFormValues) => {
    const body: TelegramSettingsInput = { chatId: values.chatId.trim(), enabled: values.enabled };
    if (values.botToken?.trim()) body.botToken = values.botToken.trim();
    save.mutate(body);
  };

  return (
    <Card title={t('Telegram 通知')} style={{ marginTop: 16 }}>
      <Typography.Paragraph type="secondary">
        {t(
          '用 @BotFather 创建机器人拿到令牌，先给机器人发一条消息，再用 @userinfobot 查到你的聊天编号（群组以 -100 开头）。保存时会发一条测试消息，新邮件到达时推送发件人、主题、验证码和查看链接。',
        )}
      </Typography.Paragraph>
      <Form<TelegramFormValues>
        name="telegram"
        form={form}
        layout="vertical"
        initialValues={{
          botToken: '',
          chatId: current?.chatId ?? '',
          enabled: current?.botTokenSet ? current.enabled : true,
        }}
        onValuesChange={() => save.reset()}
        onFinish={submit}
        style={{ maxWidth: 520 }}
      >
        <Form.Item
          name="botToken"
          label={t('机器人令牌')}
          extra={current?.botTokenSet ? t('已设置，留空则保持不变') : undefined}
          rules={[
            { required: !current?.botTokenSet, message: t('请输入机器人令牌') },
            {
              pattern: /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/,
              message: t('格式如 123456789:AAE…（数字、冒号、字母）'),
            },
          ]}
        >
          <Input.Password
            placeholder={current?.botTokenSet ? t('已设置') : '123456789:AAE…'}
            autoComplete="off"
          />
        </Form.Item>
        <Form.Item
          name="chatId"
          label={t('聊天编号')}
          rules={[
            { required: true, whitespace: true, message: t('请输入聊天编号') },
            {
              pattern: /^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/,
              message: t('聊天编号是数字（群组为 -100 开头）或 @频道名'),
            },
          ]}
        >
          <Input placeholder={t('例如 123456789')} />
        </Form.Item>
        <Form.Item name="enabled" label={t('推送新邮件')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {save.isError ? (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('没有保存')}
            description={save.error.message}
            data-testid="telegram-error"
          />
        ) : null}
        {current?.lastStatus ? (
          <Typography.Paragraph type={current.lastStatus.status === 'delivered' ? 'success' : 'danger'}>
            {t('最近推送：')}
            {current.lastStatus.status === 'delivered' ? t('成功') : t('失败')}
            {t('（')}
            <TimeText value={current.lastStatus.at} />

            {t('）')}
          </Typography.Paragraph>
        ) : null}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('保存并发送测试消息')}
        </Button>
      </Form>
    </Card>
  );
}
