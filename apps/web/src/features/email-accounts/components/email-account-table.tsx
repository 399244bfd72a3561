import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { EmailAccount } from '@youju/contract';
import {
  Button,
  Card,
  Input,
  Popconfirm,
  Progress,
  Space,
  Table,
  type TableProps,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { FilterSelect } from '../../../components/filter-select';
import { renderTime } from '../../../components/time-text';
import { useTablePaging } from '../../../components/use-table-paging';
import { formatBytes } from '../../../lib/bytes';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useBatchEditEmailAccounts } from '../api/batch-edit-email-accounts';
import { useDeleteEmailAccounts } from '../api/delete-email-accounts';
import { useExportEmailAccounts } from '../api/export-email-accounts';
import { type EmailAccountListParams, useEmailAccounts } from '../api/get-email-accounts';
import { BatchDialog, type BatchKind } from './batch-dialog';
import { EmailAccountFormDialog } from './email-account-form-dialog';
import { ImportDialog } from './import-dialog';

type DialogState = { kind: 'none' } | { kind: 'form'; account: EmailAccount | null } | { kind: 'import' };
type StatusFilter = 'all' | 'enabled' | 'disabled';
type ExpiryFilter = 'all' | 'valid' | 'expired';

const sourceLabels = (): Record<string, string> => ({
  manual: t('手动创建'),
  import: t('批量导入'),
  card: t('卡密兑换'),
  order: t('商店购买'),
  register: t('自助注册'),
  temporary: t('临时邮箱'),
});

function isExpired(account: EmailAccount): boolean {
  return account.expiresAt !== null && Date.parse(account.expiresAt) <= Date.now();
}

function StatusTag({ account }: { account: EmailAccount }) {
  if (!account.enabled) return <Tag color="default">{t('已停用')}</Tag>;
  if (isExpired(account)) return <Tag color="warning">{t('已过期')}</Tag>;
  return <Tag color="success">{t('正常')}</Tag>;
}

function UsageCell({ account }: { account: EmailAccount }) {
  const unlimited = account.quotaBytes === 0;
  const percent = unlimited ? 0 : Math.min(100, Math.round((account.usedBytes / account.quotaBytes) * 100));
  return (
    <div style={{ minWidth: 150 }}>
      <Typography.Text>
        {formatBytes(account.usedBytes, 'account')} /{' '}
        {unlimited ? t('不限') : formatBytes(account.quotaBytes, 'account')}
      </Typography.Text>
      {!unlimited && (
        <Progress
          percent={percent}
          size="small"
          showInfo={false}
          status={percent >= 100 ? 'exception' : 'normal'}
        />
      )}
    </div>
  );
}

/** /user/emailAccount: search, filter, page, select and act on many at once, import and export. */
export interface EmailAccountTableProps {
  /** where the 客户端设置 screen of one address is (the route wires the screens together) */
  clientSettingsHref?: (email: string) => string;
  /** where the 邮件转发 screen of one address is */
  forwardHref?: (email: string) => string;
}

export function EmailAccountTable({ clientSettingsHref, forwardHref }: EmailAccountTableProps = {}) {
  const { paging, toFirstPage, filterChange, pagination } = useTablePaging();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [expiry, setExpiry] = useState<ExpiryFilter>('all');
  const [selected, setSelected] = useState<number[]>([]);
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const [batchKind, setBatchKind] = useState<BatchKind | null>(null);

  const filters = {
    content: search || undefined,
    enabled: status === 'all' ? undefined : status === 'enabled',
    expired: expiry === 'all' ? undefined : expiry === 'expired',
  };
  const params: EmailAccountListParams = { ...paging, ...filters };
  const accountsQuery = useEmailAccounts(params);
  const data = accountsQuery.data;
  const clearSelection = () => setSelected([]);

  const batchMutation = useBatchEditEmailAccounts((result) => {
    showSuccessMessage(t('已修改 {updated} 个邮箱', { updated: result.updated }));
    clearSelection();
  });
  const deleteMutation = useDeleteEmailAccounts((result) => {
    showSuccessMessage(t('已删除 {deleted} 个邮箱及其邮件', { deleted: result.deleted }));
    clearSelection();
  });
  const exportMutation = useExportEmailAccounts();

  const columns: TableProps<EmailAccount>['columns'] = [
    {
      title: t('邮箱地址'),
      dataIndex: 'email',
      render: (email: string, account) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong copyable={{ text: email, tooltips: [t('复制'), t('已复制')] }}>
            {email}
          </Typography.Text>
          {account.note && <Typography.Text type="secondary">{account.note}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('状态'),
      key: 'status',
      width: 90,
      render: (_value, account) => <StatusTag account={account} />,
    },
    { title: t('已用 / 容量'), key: 'usage', render: (_value, account) => <UsageCell account={account} /> },
    {
      title: t('过期时间'),
      dataIndex: 'expiresAt',
      render: renderTime(t('永不过期')),
    },
    {
      title: t('来源'),
      dataIndex: 'source',
      render: (source: string) => sourceLabels()[source] ?? t('其他'),
    },
    { title: t('创建时间'), dataIndex: 'createdAt', render: renderTime() },
    {
      title: t('操作'),
      key: 'actions',
      fixed: 'right',
      render: (_value, account) => (
        <Space>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'form', account })}>
            {t('编辑')}
          </Button>
          {clientSettingsHref ? (
            <Link to={clientSettingsHref(account.email)}>
              <Button type="link" size="small">
                {t('客户端设置')}
              </Button>
            </Link>
          ) : null}
          {forwardHref ? (
            <Link to={forwardHref(account.email)}>
              <Button type="link" size="small">
                {t('邮件转发')}
              </Button>
            </Link>
          ) : null}
          <Popconfirm
            title={t('删除邮箱 {email}？', { email: account.email })}
            description={t('邮箱中的全部邮件会一并删除，此操作不可撤销。')}
            okText={t('删除')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true, loading: deleteMutation.isPending }}
            onConfirm={() => deleteMutation.mutateAsync([account.id])}
          >
            <Button type="link" size="small" danger>
              {t('删除')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('邮箱账号')}
      extra={
        <Space wrap>
          <Button icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'import' })}>
            {t('导入')}
          </Button>
          <Tooltip title={t('按当前搜索和筛选条件导出')}>
            <Button
              icon={<DownloadOutlined />}
              loading={exportMutation.isPending}
              onClick={() =>
                exportMutation.mutate(filters, {
                  onSuccess: (name) => showSuccessMessage(t('已导出 {name}', { name })),
                })
              }
            >
              {t('导出')}
            </Button>
          </Tooltip>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ kind: 'form', account: null })}
          >
            {t('新建邮箱')}
          </Button>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('搜索地址、地址的一部分或备注')}
          aria-label={t('搜索邮箱')}
          style={{ width: 280 }}
          onSearch={(value) => {
            setSearch(value.trim());
            toFirstPage();
            clearSelection();
          }}
        />
        <FilterSelect<StatusFilter>
          label={t('启用状态')}
          value={status}
          onChange={filterChange(setStatus)}
          options={[
            { value: 'all', label: t('全部状态') },
            { value: 'enabled', label: t('已启用') },
            { value: 'disabled', label: t('已停用') },
          ]}
        />
        <FilterSelect<ExpiryFilter>
          label={t('有效期')}
          value={expiry}
          onChange={filterChange(setExpiry)}
          options={[
            { value: 'all', label: t('全部有效期') },
            { value: 'valid', label: t('未过期') },
            { value: 'expired', label: t('已过期') },
          ]}
        />
      </Space>
      {selected.length > 0 && (
        <Space wrap style={{ marginBottom: 16 }} data-testid="batch-actions">
          <Typography.Text>{t('已选 {count} 个：', { count: selected.length })}</Typography.Text>
          <Button
            loading={batchMutation.isPending && batchMutation.variables?.enabled === true}
            onClick={() => batchMutation.mutate({ ids: selected, enabled: true })}
          >
            {t('批量启用')}
          </Button>
          <Button
            loading={batchMutation.isPending && batchMutation.variables?.enabled === false}
            onClick={() => batchMutation.mutate({ ids: selected, enabled: false })}
          >
            {t('批量停用')}
          </Button>
          <Button onClick={() => setBatchKind('extend')}>{t('延长有效期')}</Button>
          <Button onClick={() => setBatchKind('quota')}>{t('设置容量')}</Button>
          <Popconfirm
            title={t('删除选中的 {count} 个邮箱？', { count: selected.length })}
            description={t('这些邮箱中的全部邮件会一并删除，此操作不可撤销。')}
            okText={t('删除')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true, loading: deleteMutation.isPending }}
            onConfirm={() => deleteMutation.mutateAsync(selected)}
          >
            <Button danger>{t('批量删除')}</Button>
          </Popconfirm>
          <Button type="link" onClick={clearSelection}>
            {t('取消选择')}
          </Button>
        </Space>
      )}
      <Table<EmailAccount>
        rowKey="id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={accountsQuery.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: search ? t('没有匹配的邮箱') : t('暂无邮箱账号') }}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys.map(Number)),
        }}
        pagination={pagination(data?.total ?? 0, t('个邮箱'))}
      />
      <EmailAccountFormDialog
        key={dialog.kind === 'form' ? (dialog.account?.id ?? 'new') : 'closed'}
        open={dialog.kind === 'form'}
        account={dialog.kind === 'form' ? dialog.account : null}
        onClose={() => setDialog({ kind: 'none' })}
      />
      <ImportDialog open={dialog.kind === 'import'} onClose={() => setDialog({ kind: 'none' })} />
      <BatchDialog
        key={batchKind ?? 'closed'}
        kind={batchKind}
        ids={selected}
        onClose={() => setBatchKind(null)}
        onDone={() => {
          setBatchKind(null);
          clearSelection();
        }}
      />
    </Card>
  );
}
