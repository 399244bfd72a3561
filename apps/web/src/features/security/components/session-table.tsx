import type { SessionItem } from '@youju/contract';
import { Button, Card, Popconfirm, Table, type TableProps, Tag, Tooltip } from 'antd';
import { renderTime } from '../../../components/time-text';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/sessions';

/** The caller's active sessions: where and on what they are logged in, with a way to end them. */
export function SessionTable() {
  const sessions = useSessions();
  const revoke = useRevokeSession(() => showSuccessMessage(t('已结束该会话')));
  const revokeOthers = useRevokeOtherSessions((revoked) =>
    showSuccessMessage(revoked > 0 ? t('已结束其他 {count} 个会话', { count: revoked }) : t('没有其他会话')),
  );
  const others = (sessions.data ?? []).filter((session) => !session.current).length;

  const columns: TableProps<SessionItem>['columns'] = [
    {
      title: t('设备'),
      dataIndex: 'device',
      render: (device: string, session) => (
        <Tooltip title={session.userAgent || t('未提供')}>
          <span>
            {device} {session.current ? <Tag color="green">{t('当前会话')}</Tag> : null}
          </span>
        </Tooltip>
      ),
    },
    { title: t('IP 地址'), dataIndex: 'ip' },
    { title: t('登录时间'), dataIndex: 'createdAt', render: renderTime() },
    { title: t('最近活动'), dataIndex: 'lastSeenAt', render: renderTime() },
    {
      title: t('操作'),
      key: 'actions',
      render: (_value, session) =>
        session.current ? null : (
          <Popconfirm
            title={t('结束这个会话？')}
            description={t('该设备需要重新登录。')}
            okText={t('结束')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true }}
            onConfirm={() => revoke.mutate(session.id)}
          >
            <Button
              type="link"
              size="small"
              danger
              loading={revoke.isPending && revoke.variables === session.id}
            >
              {t('结束会话')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Card
      title={t('登录中的设备')}
      extra={
        <Popconfirm
          title={t('结束其他所有会话？')}
          description={t('除当前浏览器外，其他设备都需要重新登录。')}
          okText={t('全部结束')}
          cancelText={t('取消')}
          okButtonProps={{ danger: true }}
          onConfirm={() => revokeOthers.mutate()}
          disabled={others === 0}
        >
          <Button danger disabled={others === 0} loading={revokeOthers.isPending}>
            {t('结束其他会话')}
          </Button>
        </Popconfirm>
      }
    >
      <Table<SessionItem>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={sessions.data ?? []}
        loading={sessions.isPending}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('没有登录中的会话') }}
      />
    </Card>
  );
}
