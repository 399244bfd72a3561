import type { Order, OrderStatus } from '@youju/contract';
import { Button, Input, Popconfirm, Space, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { FilterSelect } from '../../../components/filter-select';
import { renderTime } from '../../../components/time-text';
import { useTablePaging } from '../../../components/use-table-paging';
import { showSuccessMessage } from '../../../lib/feedback';
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
      order.status === 'delivered' ? `已确认收款，邮箱 ${order.address} 已开通` : '已确认收款',
    ),
  );
  const cancelMutation = useCancelOrder(() => showSuccessMessage('订单已取消'));
  const data = ordersQuery.data;

  const columns: TableProps<Order>['columns'] = [
    {
      title: '订单号',
      dataIndex: 'orderNo',
      render: (no: string) => <Typography.Text copyable>{no}</Typography.Text>,
    },
    { title: '邮箱地址', dataIndex: 'address' },
    { title: '手机号', dataIndex: 'phone' },
    { title: '金额', dataIndex: 'amount', render: yuan },
    { title: '支付方式', dataIndex: 'payMethod', render: payMethodLabel },
    {
      title: '状态',
      dataIndex: 'status',
      render: (value: OrderStatus, order) => {
        const tag = <Tag color={orderStatusTags[value].color}>{orderStatusTags[value].label}</Tag>;
        return order.failure ? <Tooltip title={order.failure}>{tag}</Tooltip> : tag;
      },
    },
    { title: '下单时间', dataIndex: 'createdAt', render: renderTime() },
    { title: '付款时间', dataIndex: 'paidAt', render: renderTime() },
    {
      title: '操作',
      key: 'actions',
      render: (_value, order) =>
        order.status === 'pending' || order.status === 'expired' ? (
          <Space>
            <Popconfirm
              title={`确认已收到订单 ${order.orderNo} 的付款？`}
              description={`确认后立即开通 ${order.address}。`}
              okText="确认收款"
              cancelText="取消"
              onConfirm={() => confirmMutation.mutateAsync(order.orderNo)}
            >
              <Button type="link" size="small">
                确认收款
              </Button>
            </Popconfirm>
            <Popconfirm
              title="取消这个订单？"
              description="取消后该地址可被他人购买。"
              okText="取消订单"
              cancelText="不取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => cancelMutation.mutateAsync(order.orderNo)}
            >
              <Button type="link" size="small" danger>
                取消订单
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
          label="订单状态"
          value={status}
          onChange={filterChange(setStatus)}
          options={[
            { value: 'all', label: '全部状态' },
            ...(Object.keys(orderStatusTags) as OrderStatus[]).map((key) => ({
              value: key,
              label: orderStatusTags[key].label,
            })),
          ]}
        />
        <Input.Search
          allowClear
          aria-label="按手机号筛选"
          placeholder="按手机号筛选"
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
        locale={{ emptyText: '暂无订单' }}
        pagination={pagination(data?.total ?? 0, '个订单')}
      />
    </>
  );
}
