import type { Order, OrderStatus } from '@youju/contract';
import { Button, Input, Popconfirm, Space, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { FilterSelect } from '../../../components/filter-select';
import { renderTime } from '../../../components/time-text';
import { useTablePaging } from '../../../components/use-table-paging';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useCancelOrder } from '../api/cancel-order';
import { useConfirmOrder } from '../api/confirm-order';
import { useOrders } from '../api/get-orders';
import { orderStatusTags, payMethodLabel, yuan } from './order-labels';

/** Store orders on the caller's domains: confirm a manual payment (the mailbox opens once) or cancel. */
export function OrderTable() {
  const { paging, toFirstPage, filterChange, pagination } = useTablePaging();
  const [status, setStatus] = useState<OrderStatus | 'all'>('all');
  const [phone, setPhone] = useState('');
  const ordersQuery = useOrders({
    ...paging,
    status: status === 'all' ? undefined : status,
    phone: phone || undefined,
  });
  const confirmMutation = useConfirmOrder((order) =>
    showSuccessMessage(
      order.status === 'delivered'
        ? t('已确认收款，邮箱 {address} 已开通', { address: order.address })
        : t('已确认收款'),
    ),
  );
  const cancelMutation = useCancelOrder(() => showSuccessMessage(t('订单已取消')));
  const data = ordersQuery.data;

  const columns: TableProps<Order>['columns'] = [
    {
      title: t('订单号'),
      dataIndex: 'orderNo',
      render: (no: string) => <Typography.Text copyable>{no}</Typography.Text>,
    },
    { title: t('邮箱地址'), dataIndex: 'address' },
    { title: t('手机号'), dataIndex: 'phone' },
    { title: t('金额'), dataIndex: 'amount', render: yuan },
    { title: t('支付方式'), dataIndex: 'payMethod', render: payMethodLabel },
    {
      title: t('状态'),
      dataIndex: 'status',
      render: (value: OrderStatus, order) => {
        const tags = orderStatusTags();
        const tag = <Tag color={tags[value].color}>{tags[value].label}</Tag>;
        return order.failure ? <Tooltip title={order.failure}>{tag}</Tooltip> : tag;
      },
    },
    { title: t('下单时间'), dataIndex: 'createdAt', render: renderTime() },
    { title: t('付款时间'), dataIndex: 'paidAt', render: renderTime() },
    {
      title: t('操作'),
      key: 'actions',
      render: (_value, order) =>
        order.status === 'pending' || order.status === 'expired' ? (
          <Space>
            <Popconfirm
              title={t('确认已收到订单 {orderNo} 的付款？', { orderNo: order.orderNo })}
              description={t('确认后立即开通 {address}。', { address: order.address })}
              okText={t('确认收款')}
              cancelText={t('取消')}
              onConfirm={() => confirmMutation.mutateAsync(order.orderNo)}
            >
              <Button type="link" size="small">
                {t('确认收款')}
              </Button>
            </Popconfirm>
            <Popconfirm
              title={t('取消这个订单？')}
              description={t('取消后该地址可被他人购买。')}
              okText={t('取消订单')}
              cancelText={t('不取消')}
              okButtonProps={{ danger: true }}
              onConfirm={() => cancelMutation.mutateAsync(order.orderNo)}
            >
              <Button type="link" size="small" danger>
                {t('取消订单')}
              </Button>
            </Popconfirm>
          </Space>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <FilterSelect<OrderStatus | 'all'>
          label={t('订单状态')}
          value={status}
          onChange={filterChange(setStatus)}
          options={[
            { value: 'all', label: t('全部状态') },
            ...Object.entries(orderStatusTags()).map(([key, tag]) => ({
              value: key as OrderStatus,
              label: tag.label,
            })),
          ]}
        />
        <Input.Search
          allowClear
          aria-label={t('按手机号筛选')}
          placeholder={t('按手机号筛选')}
          style={{ width: 220 }}
          onSearch={(value) => {
            setPhone(value.trim());
            toFirstPage();
          }}
        />
      </Space>
      <Table<Order>
        rowKey="orderNo"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={ordersQuery.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('暂无订单') }}
        pagination={pagination(data?.total ?? 0, t('个订单'))}
      />
    </>
  );
}
