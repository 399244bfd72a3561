import type { Webhook, WebhookDelivery } from '@youju/contract';
import { Drawer, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { renderTime } from '../../../components/time-text';
import { t } from '../../../lib/i18n';
import { useWebhookDeliveries } from '../api/get-webhooks';

// Functions, not constants: their texts are read in the current language when shown, never at import.
const statusTags = (): Record<WebhookDelivery['status'], { color: string; text: string }> => ({
  pending: { color: 'processing', text: t('等待重试') },
  delivered: { color: 'success', text: t('已送达') },
  failed: { color: 'error', text: t('失败') },
});

function eventLabel(event: string): string {
  switch (event) {
    case 'mail.received':
      return t('新邮件');
    case 'order.created':
      return t('新订单');
    case 'webhook.test':
      return t('测试');
    default:
      return event;
  }
}

/** 投递记录: each delivery with its attempts and every response code, newest first. */
export function WebhookDeliveriesDrawer({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(webhook.id, page);
  return (
    <Drawer open title={t('投递记录')} size="min(760px, 100vw)" onClose={onClose}>
      <Typography.Paragraph type="secondary" ellipsis={{ tooltip: webhook.url }}>
        {webhook.url}
      </Typography.Paragraph>
      <Table<WebhookDelivery>
        rowKey="id"
        size="small"
        loading={deliveries.isPending}
        dataSource={deliveries.data?.list ?? []}
        locale={{ emptyText: t('还没有投递记录') }}
        scroll={{ x: 640 }}
        pagination={{
          current: page,
          pageSize: 10,
          total: deliveries.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: t('时间'), dataIndex: 'createdAt', width: 150, render: renderTime() },
          {
            title: t('事件'),
            dataIndex: 'event',
            width: 80,
            render: eventLabel,
          },
          {
            title: t('状态'),
            dataIndex: 'status',
            width: 90,
            render: (status: WebhookDelivery['status']) => (
              <Tag color={statusTags()[status].color}>{statusTags()[status].text}</Tag>
            ),
          },
          { title: t('尝试'), dataIndex: 'attempts', width: 60 },
          {
            title: t('响应码'),
            dataIndex: 'responseCodes',
            width: 120,
            render: (codes: number[]) =>
              codes.length === 0
                ? '—'
                : codes.map((code) => (code === 0 ? t('无响应') : String(code))).join(' → '),
          },
          {
            title: t('说明'),
            key: 'detail',
            render: (_value, delivery) =>
              delivery.lastError ? (
                <Typography.Text type="danger">{delivery.lastError}</Typography.Text>
              ) : delivery.durationMs !== null ? (
                t('用时 {ms} 毫秒', { ms: delivery.durationMs })
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Drawer>
  );
}
