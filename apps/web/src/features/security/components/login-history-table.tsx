import type { LoginHistoryItem } from '@youju/contract';
import { Card, Table, type TableProps, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { renderTime } from '../../../components/time-text';
import { t } from '../../../lib/i18n';
import { useLoginHistory } from '../api/get-login-history';

/** The caller's login attempts, successful or not, newest first. */
export function LoginHistoryTable() {
  const [paging, setPaging] = useState({ page: 1, pageSize: 10 });
  const history = useLoginHistory(paging.page, paging.pageSize);
  const columns: TableProps<LoginHistoryItem>['columns'] = [
    { title: t('时间'), dataIndex: 'createdAt', render: renderTime() },
    {
      title: t('结果'),
      dataIndex: 'success',
      render: (success: boolean, item) =>
        success ? (
          <Tag color="green">{t('成功')}</Tag>
        ) : (
          <Tag color="red">{item.reason ? t('失败：{reason}', { reason: item.reason }) : t('失败')}</Tag>
        ),
    },
    { title: t('IP 地址'), dataIndex: 'ip' },
    {
      title: t('设备'),
      dataIndex: 'device',
      render: (device: string, item) => <Tooltip title={item.userAgent || t('未提供')}>{device}</Tooltip>,
    },
  ];
  return (
    <Card title={t('登录记录')}>
      <Table<LoginHistoryItem>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={history.data?.list ?? []}
        loading={history.isFetching}
        scroll={{ x: true }}
        locale={{ emptyText: t('暂无登录记录') }}
        pagination={{
          current: paging.page,
          pageSize: paging.pageSize,
          total: history.data?.total ?? 0,
          showTotal: (total) => t('共 {total} 条', { total }),

          onChange: (page, pageSize) => setPaging({ page, pageSize }),
        }}
      />
    </Card>
  );
}
