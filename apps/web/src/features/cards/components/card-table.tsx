import { PlusOutlined } from '@ant-design/icons';
import type { Card as CardItem, CardStatus } from '@youju/contract';
import { Button, Card, Popconfirm, Select, Space, Table, type TableProps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { FilterSelect } from '../../../components/filter-select';
import { renderTime, TimeText } from '../../../components/time-text';
import { useTablePaging } from '../../../components/use-table-paging';
import { formatBytes } from '../../../lib/bytes';
import { copyText } from '../../../lib/clipboard';
import { formatTime } from '../../../lib/dates';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { t, tc } from '../../../lib/i18n';
import { useDeleteCards } from '../api/delete-cards';
import { useEditCard } from '../api/edit-card';
import { useExportCardBatch } from '../api/export-card-batch';
import { useCardBatches } from '../api/get-card-batches';
import { useCards } from '../api/get-cards';
import { CardCreateDialog } from './card-create-dialog';

// A function, not a constant: the labels are read in the interface's language at render.
const statusTags = (): Record<CardStatus, { color: string; label: string }> => ({
  unused: { color: 'success', label: t('未使用') },
  used: { color: 'default', label: t('已使用') },
  disabled: { color: 'warning', label: t('已停用') },
});

function quotaText(bytes: number): string {
  return bytes > 0 ? formatBytes(bytes, 'wholeMegabytes') : t('默认');
}

/** /user/card: the caller's prepaid cards, with generation, status filter, copy and export. */
export function CardTable() {
  const { paging, filterChange, pagination } = useTablePaging();
  const [status, setStatus] = useState<CardStatus | 'all'>('all');
  const [batchId, setBatchId] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const cardsQuery = useCards({ ...paging, status: status === 'all' ? undefined : status, batchId });
  const batchesQuery = useCardBatches();
  const editMutation = useEditCard((card) =>
    showSuccessMessage(
      card.status === 'disabled' ? t('卡密已停用') : card.status === 'unused' ? t('卡密已启用') : t('已保存'),
    ),
  );
  const deleteMutation = useDeleteCards((result) => {
    showSuccessMessage(t('已删除 {count} 个卡密', { count: result.deleted }));
    setSelected([]);
  });
  const exportMutation = useExportCardBatch();
  const data = cardsQuery.data;

  const columns: TableProps<CardItem>['columns'] = [
    {
      title: t('卡密'),
      dataIndex: 'code',
      render: (code: string) => (
        <Typography.Text code copyable={{ text: code, tooltips: [t('复制'), t('已复制')] }}>
          {code}
        </Typography.Text>
      ),
    },
    {
      title: t('状态'),
      dataIndex: 'status',
      render: (value: CardStatus) => <Tag color={statusTags()[value].color}>{statusTags()[value].label}</Tag>,
    },
    { title: t('域名'), dataIndex: 'domainName', render: (name: string | null) => name ?? t('任一开放域名') },
    {
      title: t('有效天数'),
      dataIndex: 'validDays',
      // Two keys: English says "1 day" but "30 days".
      render: (days: number) => (days === 1 ? t('1 天') : t('{days} 天', { days })),
    },
    { title: t('容量'), dataIndex: 'quotaBytes', render: quotaText },
    {
      title: t('使用情况'),
      key: 'used',
      render: (_value, card) =>
        card.usedBy ? (
          <Space orientation="vertical" size={0}>
            <Typography.Text>{card.usedBy}</Typography.Text>
            <Typography.Text type="secondary">
              <TimeText value={card.usedAt} />
            </Typography.Text>
          </Space>
        ) : (
          '—'
        ),
    },
    {
      title: t('备注'),
      dataIndex: 'note',
      render: (note: string, card) => (
        <Typography.Text
          editable={{
            tooltip: t('修改备注'),
            maxLength: 200,
            onChange: (value) => {
              if (value !== note) editMutation.mutate({ id: card.id, note: value });
            },
          }}
        >
          {note}
        </Typography.Text>
      ),
    },
    { title: t('创建时间'), dataIndex: 'createdAt', render: renderTime() },
    {
      title: t('操作'),
      key: 'actions',
      render: (_value, card) => (
        <Space>
          {card.status !== 'used' && (
            <Button
              type="link"
              size="small"
              onClick={() =>
                editMutation.mutate({
                  id: card.id,
                  status: card.status === 'disabled' ? 'unused' : 'disabled',
                })
              }
            >
              {card.status === 'disabled' ? tc('action', '启用') : tc('action', '停用')}
            </Button>
          )}
          <Popconfirm
            title={t('删除这个卡密？')}
            okText={t('删除')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true }}
            onConfirm={() => deleteMutation.mutateAsync([card.id])}
          >
            <Button type="link" size="small" danger>
              {t('删除')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const batchOptions = (batchesQuery.data ?? []).map((batch) => ({
    value: batch.batchId,
    label:
      t('{time} · {count} 个（未用 {unused}）', {
        time: formatTime(batch.createdAt),
        count: batch.count,
        unused: batch.unused,
      }) + (batch.note ? ` · ${batch.note}` : ''),
  }));

  return (
    <Card
      title={t('卡密管理')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('生成卡密')}
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <FilterSelect<CardStatus | 'all'>
          label={t('卡密状态')}
          value={status}
          onChange={filterChange(setStatus)}
          options={[
            { value: 'all', label: t('全部状态') },
            { value: 'unused', label: t('未使用') },
            { value: 'used', label: t('已使用') },
            { value: 'disabled', label: t('已停用') },
          ]}
        />
        <Select<string>
          aria-label={t('批次')}
          allowClear
          placeholder={t('全部批次')}
          value={batchId}
          // On a phone the batch names narrow with the screen (the card's padding aside).
          style={{ width: 'min(340px, calc(100vw - 96px))' }}
          options={batchOptions}
          onChange={filterChange(setBatchId)}
        />
        {batchId && (
          <>
            <Button
              loading={exportMutation.isPending}
              onClick={() =>
                exportMutation.mutate(
                  { batchId, format: 'csv' },
                  { onSuccess: (name) => showSuccessMessage(t('已导出 {name}', { name })) },
                )
              }
            >
              {t('导出本批（CSV）')}
            </Button>
            <Button
              loading={exportMutation.isPending}
              onClick={() =>
                exportMutation.mutate(
                  { batchId, format: 'txt' },
                  { onSuccess: (name) => showSuccessMessage(t('已导出 {name}', { name })) },
                )
              }
            >
              {t('导出本批（TXT）')}
            </Button>
          </>
        )}
        {selected.length > 0 && (
          <>
            <Button
              onClick={() => {
                const codes = (data?.list ?? [])
                  .filter((card) => selected.includes(card.id))
                  .map((card) => card.code);
                copyText(codes.join('\n')).then(
                  () => showSuccessMessage(t('已复制 {count} 个卡密', { count: codes.length })),
                  () => showErrorMessage(t('复制失败，请手动选择文本复制')),
                );
              }}
            >
              {t('复制选中')}
            </Button>
            <Popconfirm
              title={t('删除选中的 {count} 个卡密？', { count: selected.length })}
              okText={t('删除')}
              cancelText={t('取消')}
              okButtonProps={{ danger: true }}
              onConfirm={() => deleteMutation.mutateAsync(selected)}
            >
              <Button danger>{t('删除选中')}</Button>
            </Popconfirm>
          </>
        )}
      </Space>
      <Table<CardItem>
        rowKey="id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={cardsQuery.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('暂无卡密') }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        pagination={pagination(data?.total ?? 0, t('个卡密'))}
      />
      <CardCreateDialog
        key={creating ? 'open' : 'closed'}
        open={creating}
        onClose={() => setCreating(false)}
      />
    </Card>
  );
}
