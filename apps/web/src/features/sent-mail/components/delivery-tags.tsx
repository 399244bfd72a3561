import type { Delivery, DeliveryStatus } from '@youju/contract';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { formatTime } from '../../../lib/dates';
import { t } from '../../../lib/i18n';

/** Each state's tag, in the current language (built when called, never at import). */
export const statusLabels = (): Record<DeliveryStatus, { text: string; color: string }> => ({
  queued: { text: t('排队中'), color: 'default' },
  sending: { text: t('发送中'), color: 'processing' },
  delivered: { text: t('已送达'), color: 'success' },
  retrying: { text: t('重试中'), color: 'warning' },
  failed: { text: t('失败'), color: 'error' },
});

/** What a recipient's state means for the person who sent the mail. */
export function deliveryExplanation(delivery: Delivery): string {
  switch (delivery.status) {
    case 'queued':
      return t('等待投递');
    case 'sending':
      return t('正在连接对方邮件服务器');
    case 'delivered':
      return delivery.remoteResponse
        ? t('对方服务器已接收：{response}', { response: delivery.remoteResponse })
        : t('对方服务器已接收');
    case 'retrying': {
      const when = delivery.nextAttemptAt
        ? t('将于 {time} 重试', { time: formatTime(delivery.nextAttemptAt) })
        : t('稍后重试');
      const tried = t('（已尝试 {count} 次）', { count: delivery.attempts });
      const last = delivery.lastError ? t('，上次结果：{error}', { error: delivery.lastError }) : '';
      return `${when}${tried}${last}`;
    }
    case 'failed':
      return t('投递失败，对方服务器回复：{reply}', { reply: delivery.lastError ?? t('未知原因') });
  }
}

export function StatusTag({ delivery }: { delivery: Delivery }) {
  const label = statusLabels()[delivery.status];

  const suffix =
    delivery.status === 'retrying' && delivery.nextAttemptAt ? ` ${formatTime(delivery.nextAttemptAt)}` : '';
  return (
    <Tooltip title={deliveryExplanation(delivery)}>
      <Tag color={label.color} data-status={delivery.status}>
        {label.text}
        {suffix}
      </Tag>
    </Tooltip>
  );
}

/** One line per recipient: address, state tag and, when it failed, the remote server's answer. */
export function DeliveryTags({ deliveries }: { deliveries: Delivery[] }) {
  return (
    <Space direction="vertical" size={2}>
      {deliveries.map((delivery) => (
        <Space key={delivery.rcpt} size={4} wrap>
          <Typography.Text>{delivery.rcpt}</Typography.Text>
          <StatusTag delivery={delivery} />
          {delivery.status === 'failed' && delivery.lastError && (
            <Typography.Text type="danger" style={{ fontSize: 12 }}>
              {delivery.lastError}
            </Typography.Text>
          )}
        </Space>
      ))}
    </Space>
  );
}
