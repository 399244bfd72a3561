import type { OrderStatus, PublicOrder } from '@youju/contract';
import { Alert, Input, Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { renderTime } from '../../../components/time-text';
import { t } from '../../../lib/i18n';
import { useQueryOrders } from '../api/query-order';

// Functions, not constants: their texts are read in the current language when shown, never at import.
const statusTags = (): Record<OrderStatus, { color: string; label: string }> => ({
  pending: { color: 'processing', label: t('等待付款确认') },
  paid: { color: 'warning', label: t('已付款，待开通') },
  delivered: { color: 'success', label: t('已开通') },
  cancelled: { color: 'default', label: t('已取消') },
  expired: { color: 'default', label: t('已过期') },
});

const columns = (): TableProps<PublicOrder>['columns'] => [
  { title: t('订单号'), dataIndex: 'orderNo' },
  { title: t('域名'), dataIndex: 'domainName' },
  {
    title: t('邮箱地址'),
    dataIndex: 'address',
    render: (address: string | null) => address ?? t('开通后显示'),
  },
  {
    title: t('金额'),
    dataIndex: 'amount',
    render: (fen: number) => t('{amount} 元', { amount: (fen / 100).toFixed(2) }),
  },
  {
    title: t('状态'),
    dataIndex: 'status',
    render: (status: OrderStatus) => {
      const tag = statusTags()[status];
      return <Tag color={tag.color}>{tag.label}</Tag>;
    },
  },
  { title: t('下单时间'), dataIndex: 'createdAt', render: renderTime() },
];

/** The orders of a phone number, as queryOrder gives them. */
export function OrderLookup() {
  const [phone, setPhone] = useState('');
  const ordersQuery = useQueryOrders(phone);
  return (
    <>
      <Input.Search
        aria-label={t('下单手机号')}
        placeholder={t('输入下单时填写的手机号')}
        enterButton={t('查询')}
        style={{ maxWidth: 420, marginBottom: 16 }}
        loading={ordersQuery.isFetching}
        onSearch={(value) => {
          setPhone(value.trim());
          if (value.trim() === phone) void ordersQuery.refetch();
        }}
      />
      {ordersQuery.isError && <Alert type="error" showIcon title={ordersQuery.error.message} />}
      {phone && ordersQuery.data && (
        <Table<PublicOrder>
          rowKey="orderNo"
          size="small"
          columns={columns()}
          dataSource={ordersQuery.data}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('该手机号没有订单') }}
        />
      )}
    </>
  );
}
