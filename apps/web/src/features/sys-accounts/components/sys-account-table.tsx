import { PlusOutlined } from '@ant-design/icons';
import type { SysAccount } from '@youju/contract';
import { Button, Card, Popconfirm, Space, Switch, Table, type TableProps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { renderTime } from '../../../components/time-text';
import { useTablePaging } from '../../../components/use-table-paging';
import { roleLabel } from '../../../config/labels';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { usePermissionStore } from '../../../state/permission';
import { useDeleteSysAccount } from '../api/delete-sys-account';
import { useEditSysAccount } from '../api/edit-sys-account';
import { useSysAccounts } from '../api/get-sys-accounts';
import { SysAccountFormDialog } from './sys-account-form-dialog';

type DialogState = { open: false } | { open: true; account: SysAccount | null };

function limitText(limit: number): string {
  return limit === 0 ? t('不限') : String(limit);
}

/** System accounts of the service: list, create, edit, enable or disable, delete. */
export function SysAccountTable() {
  const { paging, pagination } = useTablePaging();
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  const currentName = usePermissionStore((state) => state.permissionData.name);
  const accountsQuery = useSysAccounts(paging);
  const toggleMutation = useEditSysAccount((account) =>
    showSuccessMessage(
      account.enabled
        ? t('已启用账号 {username}', { username: account.username })
        : t('已停用账号 {username}', { username: account.username }),
    ),
  );
  const deleteMutation = useDeleteSysAccount(() => showSuccessMessage(t('账号已删除')));
  const data = accountsQuery.data;

  const columns: TableProps<SysAccount>['columns'] = [
    {
      title: t('用户名'),
      dataIndex: 'username',
      render: (username: string) => (
        <Space size={4}>
          <Typography.Text strong>{username}</Typography.Text>
          {username === currentName && <Tag color="blue">{t('当前账号')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('角色'),
      dataIndex: 'role',
      render: (role: SysAccount['role']) => (
        <Tag color={role === 'admin' ? 'gold' : 'default'}>{roleLabel(role)}</Tag>
      ),
    },
    {
      title: t('状态'),
      dataIndex: 'enabled',
      render: (enabled: boolean, account) => (
        <Switch
          checked={enabled}
          checkedChildren={t('启用')}
          unCheckedChildren={t('停用')}
          aria-label={t('启用或停用账号 {username}', { username: account.username })}
          disabled={account.username === currentName}
          loading={toggleMutation.isPending && toggleMutation.variables?.id === account.id}
          onChange={(checked) => toggleMutation.mutate({ id: account.id, enabled: checked })}
        />
      ),
    },
    { title: t('域名上限'), dataIndex: 'maxDomains', render: limitText },
    { title: t('邮箱上限'), dataIndex: 'maxMailboxes', render: limitText },
    { title: t('创建时间'), dataIndex: 'createdAt', render: renderTime() },
    {
      title: t('最后登录'),
      dataIndex: 'lastLoginAt',
      render: renderTime(t('从未登录')),
    },
    {
      title: t('操作'),
      key: 'actions',
      render: (_value, account) => (
        <Space>
          <Button type="link" size="small" onClick={() => setDialog({ open: true, account })}>
            {t('编辑')}
          </Button>
          <Popconfirm
            title={t('删除账号 {username}？', { username: account.username })}
            description={t('删除后该账号无法再登录，此操作不可撤销。')}
            okText={t('删除')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true }}
            onConfirm={() => deleteMutation.mutate(account.id)}
            disabled={account.username === currentName}
          >
            <Button
              type="link"
              size="small"
              danger
              disabled={account.username === currentName}
              loading={deleteMutation.isPending && deleteMutation.variables === account.id}
            >
              {t('删除')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('系统账号')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDialog({ open: true, account: null })}
        >
          {t('新建账号')}
        </Button>
      }
    >
      <Table<SysAccount>
        rowKey="id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={accountsQuery.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('暂无系统账号') }}
        pagination={pagination(data?.total ?? 0, t('个账号'))}
      />
      <SysAccountFormDialog
        key={dialog.open ? (dialog.account?.id ?? 'new') : 'closed'}
        open={dialog.open}
        account={dialog.open ? dialog.account : null}
        onClose={() => setDialog({ open: false })}
      />
    </Card>
  );
}
