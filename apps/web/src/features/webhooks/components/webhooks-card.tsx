import { DeleteOutlined, EditOutlined, HistoryOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import type { CreatedWebhook, Webhook, WebhookTestResult } from '@youju/contract';
import { Alert, Button, Card, Modal, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { TimeText } from '../../../components/time-text';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useDeleteWebhook, useEditWebhook, useTestWebhook } from '../api/change-webhooks';
import { useWebhooks } from '../api/get-webhooks';
import { SignatureExamples } from './signature-examples';
import { WebhookDeliveriesDrawer } from './webhook-deliveries-drawer';
import { WebhookFormDialog } from './webhook-form-dialog';

function testSummary(result: WebhookTestResult): string {
  const answer = result.responseCode !== null ? `HTTP ${result.responseCode}` : (result.error ?? t('无响应'));
  const values = { answer, ms: result.durationMs };
  return result.status === 'delivered'
    ? t('测试成功：{answer}，用时 {ms} 毫秒', values)
    : t('测试失败：{answer}，用时 {ms} 毫秒', values);
}

function EnabledSwitch({ webhook }: { webhook: Webhook }) {
  const edit = useEditWebhook((saved) => showSuccessMessage(saved.enabled ? t('已启用') : t('已停用')));
  return (
    <Switch
      checked={webhook.enabled}
      loading={edit.isPending}
      checkedChildren={t('启用')}
      unCheckedChildren={t('停用')}
      aria-label={
        webhook.enabled ? t('停用 {url}', { url: webhook.url }) : t('启用 {url}', { url: webhook.url })
      }
      onChange={(enabled) => edit.mutate({ id: webhook.id, enabled })}
    />
  );
}

function RowActions({
  webhook,
  onEdit,
  onLog,
  onTested,
}: {
  webhook: Webhook;
  onEdit: () => void;
  onLog: () => void;
  onTested: (result: WebhookTestResult) => void;
}) {
  const test = useTestWebhook(onTested);
  const remove = useDeleteWebhook(() => showSuccessMessage(t('已删除 Webhook')));
  return (
    <Space wrap size={4}>
      <Button
        size="small"
        icon={<SendOutlined />}
        loading={test.isPending}
        onClick={() => test.mutate(webhook.id)}
      >
        {t('测试')}
      </Button>
      <Button size="small" icon={<HistoryOutlined />} onClick={onLog}>
        {t('记录')}
      </Button>
      <Button size="small" icon={<EditOutlined />} onClick={onEdit}>
        {t('编辑')}
      </Button>
      <Popconfirm
        title={t('删除这个 Webhook？')}
        description={t('删除后不再推送，投递记录一并删除。')}
        okText={t('删除')}
        cancelText={t('取消')}
        okButtonProps={{ danger: true, loading: remove.isPending }}
        onConfirm={() => remove.mutate(webhook.id)}
      >
        <Button size="small" danger icon={<DeleteOutlined />}>
          {t('删除')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

/** The secret of a new webhook, shown this once with a copy button. */
function SecretDialog({ webhook, onClose }: { webhook: CreatedWebhook; onClose: () => void }) {
  return (
    <Modal
      open
      title={t('Webhook 已添加')}
      okText={t('我已保存')}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ hidden: true }}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('请立即复制并妥善保存签名密钥')}
        description={t('密钥只显示这一次，用它校验推送的 X-Youju-Signature；丢失后请删除并重新添加。')}
      />
      <Typography.Paragraph>
        <Typography.Text
          code
          className="webhook-secret"
          copyable={{ text: webhook.secret, tooltips: [t('复制密钥'), t('已复制')] }}
        >
          {webhook.secret}
        </Typography.Text>
      </Typography.Paragraph>
    </Modal>
  );
}

/** /user/interface: the caller's webhooks (list, add, edit, enable, test, log, delete). */
export function WebhooksCard() {
  const webhooks = useWebhooks();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [tests, setTests] = useState<Record<number, WebhookTestResult>>({});

  return (
    <Card
      title={t('Webhook 推送')}
      style={{ marginTop: 16 }}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setAdding(true)}
          disabled={(webhooks.data?.length ?? 0) >= 10}
        >
          {t('添加 Webhook')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('新邮件到达时，把发件人、主题、验证码和正文（前 4 KB）推送到你的程序，最多 10 个。')}
      </Typography.Paragraph>
      <Table<Webhook>
        rowKey="id"
        className="webhook-table"
        loading={webhooks.isPending}
        dataSource={webhooks.data ?? []}
        pagination={false}
        locale={{ emptyText: t('还没有 Webhook') }}
        scroll={{ x: 720 }}
        columns={[
          {
            title: t('回调地址'),
            dataIndex: 'url',
            render: (url: string, webhook) => (
              <>
                <Typography.Text
                  className="webhook-url"
                  ellipsis={{ tooltip: url }}
                  style={{ maxWidth: 320 }}
                >
                  {url}
                </Typography.Text>
                <div>
                  <Tag>{webhook.address ?? t('全部邮箱')}</Tag>
                </div>
                {tests[webhook.id] ? (
                  <Typography.Text
                    className="webhook-test-result"
                    type={tests[webhook.id]?.status === 'delivered' ? 'success' : 'danger'}
                  >
                    {testSummary(tests[webhook.id] as WebhookTestResult)}
                  </Typography.Text>
                ) : null}
              </>
            ),
          },
          {
            title: t('状态'),
            dataIndex: 'enabled',
            width: 90,
            render: (_enabled: boolean, webhook) => <EnabledSwitch webhook={webhook} />,
          },
          {
            title: t('最近投递'),
            dataIndex: 'lastStatus',
            width: 150,
            render: (last: Webhook['lastStatus']) =>
              last ? (
                <>
                  <Tag color={last.status === 'delivered' ? 'success' : 'error'}>
                    {last.status === 'delivered' ? t('成功') : t('失败')}
                    {last.responseCode !== null ? ` ${last.responseCode}` : ''}
                  </Tag>
                  <div>
                    <Typography.Text type="secondary">
                      <TimeText value={last.at} />
                    </Typography.Text>
                  </div>
                </>
              ) : (
                <Typography.Text type="secondary">{t('尚未投递')}</Typography.Text>
              ),
          },
          {
            title: t('操作'),
            key: 'actions',
            width: 200,
            render: (_value, webhook) => (
              <RowActions
                webhook={webhook}
                onEdit={() => setEditing(webhook)}
                onLog={() => setLog(webhook)}
                onTested={(result) => setTests((current) => ({ ...current, [webhook.id]: result }))}
              />
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('校验签名')}
      </Typography.Title>
      <SignatureExamples />
      {adding ? <WebhookFormDialog onClose={() => setAdding(false)} onCreated={setCreated} /> : null}
      {editing ? <WebhookFormDialog webhook={editing} onClose={() => setEditing(null)} /> : null}
      {created ? <SecretDialog webhook={created} onClose={() => setCreated(null)} /> : null}
      {log ? <WebhookDeliveriesDrawer webhook={log} onClose={() => setLog(null)} /> : null}
    </Card>
  );
}
