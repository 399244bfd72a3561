import { DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { SentItem } from '@youju/contract';
import { Button, Card, Popconfirm, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { renderTime } from '../../../components/time-text';
import { useTablePaging } from '../../../components/use-table-paging';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useDeleteSent } from '../api/delete-sent';
import { useSent } from '../api/get-sent';
import { DeliveryTags } from './delivery-tags';
import { SentDetailDrawer } from './sent-detail-drawer';

/**
 * /user/sent: the caller's sent mail with each recipient's delivery state (queued, sending,
 * delivered, retrying with the next time, failed with the remote answer); view and delete.
 * `onCompose` opens the compose drawer, which the route provides.
 */
export function SentView({ onCompose }: { onCompose: () => void }) {
  const { paging, pagination } = useTablePaging();
  const [viewing, setViewing] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const sent = useSent(paging.page, paging.pageSize);
  const remove = useDeleteSent((deleted) => {
    showSuccessMessage(t('已删除 {count} 封邮件', { count: deleted }));
    setSelected([]);
  });

  return (
    <Card
      title={t('已发送')}
      extra={
        <Space>
          <Popconfirm
            title={t('删除选中的 {count} 封邮件？', { count: selected.length })}
            description={t('还在队列中的投递会一并取消。')}
            okText={t('删除')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true }}
            disabled={selected.length === 0}
            onConfirm={() => remove.mutate(selected)}
          >
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0}>
              {t('删除')}
            </Button>
          </Popconfirm>
          <Button type="primary" icon={<EditOutlined />} onClick={onCompose}>
            {t('写邮件')}
          </Button>
        </Space>
      }
    >
      <Table<SentItem>
        rowKey="id"
        loading={sent.isPending}
        dataSource={sent.data?.list ?? []}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        locale={{ emptyText: t('还没有发出的邮件') }}
        scroll={{ x: 860 }}
        pagination={pagination(sent.data?.total ?? 0, t('封'))}
        columns={[
          {
            title: t('主题'),
            dataIndex: 'subject',
            ellipsis: true,
            render: (subject: string, item) => (
              <Typography.Link onClick={() => setViewing(item.id)}>
                {subject || t('（无主题）')}
              </Typography.Link>
            ),
          },
          { title: t('发件人'), dataIndex: 'from', width: 200, ellipsis: true },
          {
            title: t('收件人与投递状态'),
            width: 380,
            render: (_value, item) => <DeliveryTags deliveries={item.deliveries} />,
          },
          {
            title: t('发送时间'),
            dataIndex: 'createdAt',
            width: 150,
            render: renderTime(),
          },
          {
            title: t('操作'),
            width: 150,
            render: (_value, item) => (
              <Space>
                <Button size="small" icon={<EyeOutlined />} onClick={() => setViewing(item.id)}>
                  {t('查看')}
                </Button>
                <Popconfirm
                  title={t('删除这封已发送邮件？')}
                  description={t('还在队列中的投递会一并取消。')}
                  okText={t('删除')}
                  cancelText={t('取消')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => remove.mutate([item.id])}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('删除 {subject}', { subject: item.subject })}
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <SentDetailDrawer id={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
