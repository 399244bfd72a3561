import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Filter } from '@youju/contract';
import { Button, Card, Popconfirm, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useDeleteFilter } from '../api/delete-filter';
import { useFilters } from '../api/get-filters';
import { FilterFormDialog } from './filter-form-dialog';
import { actionHelp, actionLabels, fieldLabels, matchLabels } from './filter-labels';

function DeleteFilterButton({ filter }: { filter: Filter }) {
  const remove = useDeleteFilter(() => showSuccessMessage(t('已删除过滤规则')));
  return (
    <Popconfirm
      title={t('删除这条过滤规则？')}
      description={t('删除后新收到的邮件不再按此规则处理。')}
      okText={t('删除')}
      cancelText={t('取消')}
      okButtonProps={{ danger: true, loading: remove.isPending }}
      onConfirm={() => remove.mutate(filter.id)}
    >
      <Button danger size="small" icon={<DeleteOutlined />}>
        {t('删除')}
      </Button>
    </Popconfirm>
  );
}

/** /user/contentFilter: rules applied while mail is received. */
export function FilterTable() {
  const filters = useFilters();
  const [adding, setAdding] = useState(false);

  return (
    <Card
      title={t('内容过滤')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          {t('添加规则')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('收信时按规则检查发件人、收件人、主题或正文，命中后按处理方式执行：')}
        {Object.values(actionHelp()).join(' ')}
      </Typography.Paragraph>
      <Table<Filter>
        rowKey="id"
        loading={filters.isPending}
        dataSource={filters.data ?? []}
        pagination={false}
        locale={{ emptyText: t('还没有过滤规则') }}
        scroll={{ x: 640 }}
        columns={[
          {
            title: t('匹配字段'),
            dataIndex: 'field',
            width: 100,
            render: (field: Filter['field']) => fieldLabels()[field],
          },
          {
            title: t('匹配方式'),
            dataIndex: 'match',
            width: 110,
            render: (match: Filter['match']) => matchLabels()[match],
          },
          {
            title: t('匹配内容'),
            dataIndex: 'value',
            render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
          },
          {
            title: t('处理方式'),
            dataIndex: 'action',
            width: 140,
            render: (action: Filter['action']) => (
              <Tooltip title={actionHelp()[action]}>
                <Tag color={action === 'reject' ? 'red' : action === 'discard' ? 'volcano' : 'orange'}>
                  {actionLabels()[action]}
                </Tag>
              </Tooltip>
            ),
          },
          {
            title: t('状态'),
            dataIndex: 'enabled',
            width: 90,
            render: (enabled: boolean) =>
              enabled ? <Tag color="green">{t('启用')}</Tag> : <Tag>{t('停用')}</Tag>,
          },
          {
            title: t('操作'),
            key: 'actions',
            width: 100,
            render: (_value, filter) => <DeleteFilterButton filter={filter} />,
          },
        ]}
      />
      {adding ? <FilterFormDialog onClose={() => setAdding(false)} /> : null}
    </Card>
  );
}
