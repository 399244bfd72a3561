import { PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { type DnsRecordsData, type Domain, Permission } from '@youju/contract';
import { Alert, Button, Card, Modal, Popconfirm, Space, Table, type TableProps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useDomains } from '../../../api/get-domains';
import { renderTime } from '../../../components/time-text';
import { showSuccessMessage } from '../../../lib/feedback';
import { t, tc } from '../../../lib/i18n';
import { usePermissions } from '../../../state/permission';
import { useSetDns } from '../api/check-dns';
import { CertificateCard } from './certificate-card';
import { DeleteDomainDialog } from './delete-domain-dialog';
import { DkimDialog } from './dkim-dialog';
import { DnsCheckDialog } from './dns-check-dialog';
import { DnsStatusTag } from './dns-labels';
import { DnsProviderDialog } from './dns-provider-dialog';
import { DnsRecordTable } from './dns-record-table';
import { DomainFormDialog } from './domain-form-dialog';
import { VerifyDomainDialog } from './verify-domain-dialog';

type Dialog =
  | { kind: 'none' }
  | { kind: 'add' }
  | { kind: 'edit' | 'delete' | 'dkim' | 'check' | 'provider' | 'verify'; domain: Domain }
  | { kind: 'written'; domain: Domain; result: DnsRecordsData };

function priceText(domain: Domain): string {
  return domain.forSale ? `¥${(domain.price / 100).toFixed(2)}` : t('不出售');
}

/** /user/domain: the caller's domains with DNS state, DKIM, DNS check and set, and certificates. */
export function DomainTable() {
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const permissions = usePermissions();
  const domainsQuery = useDomains();
  const setDns = useSetDns();
  const close = () => setDialog({ kind: 'none' });

  const writeRecords = (domain: Domain) =>
    setDns.mutateAsync(domain.id).then((result) => {
      showSuccessMessage(
        t('已写入 {count} 条记录，可稍后点击“检查 DNS”确认', { count: result.records.length }),
      );
      setDialog({ kind: 'written', domain, result });
    });

  const columns: TableProps<Domain>['columns'] = [
    {
      title: t('域名'),
      dataIndex: 'displayName',
      render: (displayName: string, domain) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{displayName}</Typography.Text>
          {displayName !== domain.name && <Typography.Text type="secondary">{domain.name}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('所有权'),
      dataIndex: 'status',
      render: (status: Domain['status'], domain) =>
        status === 'pending' ? (
          <Button
            size="small"
            icon={<SafetyCertificateOutlined />}
            onClick={() => setDialog({ kind: 'verify', domain })}
            data-testid={`verify-${domain.name}`}
          >
            {t('待验证')}
          </Button>
        ) : (
          <Tag color="green">{t('已验证')}</Tag>
        ),
    },
    {
      title: t('DNS 状态'),
      dataIndex: 'dnsStatus',
      render: (status: Domain['dnsStatus']) => <DnsStatusTag status={status} />,
    },
    {
      title: t('开放注册'),
      dataIndex: 'publicRegistration',
      render: (open: boolean) =>
        open ? <Tag color="blue">{t('开放')}</Tag> : <Tag>{tc('state', '关闭')}</Tag>,
    },
    { title: t('出售价格'), key: 'price', render: (_value, domain) => priceText(domain) },
    {
      title: t('DKIM 选择器'),
      dataIndex: 'dkimSelector',
      render: (selector: string | null) => selector ?? '—',
    },
    { title: t('添加时间'), dataIndex: 'createdAt', render: renderTime() },
    {
      title: t('操作'),
      key: 'actions',
      render: (_value, domain) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'dkim', domain })}>
            {t('DKIM 记录')}
          </Button>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'check', domain })}>
            {t('检查 DNS')}
          </Button>
          <Popconfirm
            title={t('为 {displayName} 设置 DNS？', { displayName: domain.displayName })}
            description={t('将通过已配置的 DNS 服务商写入 MX、SPF、DKIM、DMARC 记录（替换同名的旧记录）。')}
            okText={t('写入')}
            cancelText={t('取消')}
            onConfirm={() => writeRecords(domain)}
          >
            <Button type="link" size="small" loading={setDns.isPending && setDns.variables === domain.id}>
              {t('设置 DNS')}
            </Button>
          </Popconfirm>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'provider', domain })}>
            {t('DNS 服务商')}
          </Button>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', domain })}>
            {t('编辑')}
          </Button>
          <Button type="link" size="small" danger onClick={() => setDialog({ kind: 'delete', domain })}>
            {t('删除')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Card
        title={t('域名管理')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add' })}>
            {t('添加域名')}
          </Button>
        }
      >
        {(domainsQuery.data ?? []).some((domain) => domain.status === 'pending') && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('有域名等待验证所有权')}
            description={t(
              '待验证的域名不会收取邮件，也不能创建邮箱。点击“待验证”查看要添加的 TXT 记录，添加后点击“验证”。',
            )}
          />
        )}
        <Table<Domain>
          rowKey="id"
          columns={columns}
          dataSource={domainsQuery.data ?? []}
          loading={domainsQuery.isFetching}
          scroll={{ x: 'max-content' }}
          pagination={false}
          locale={{ emptyText: t('还没有域名，点击“添加域名”开始') }}
        />
      </Card>
      {permissions.includes(Permission.certificates) && <CertificateCard />}

      {dialog.kind === 'add' && <DomainFormDialog domain={null} onClose={close} />}
      {dialog.kind === 'edit' && <DomainFormDialog domain={dialog.domain} onClose={close} />}
      {dialog.kind === 'delete' && <DeleteDomainDialog domain={dialog.domain} onClose={close} />}
      {dialog.kind === 'dkim' && <DkimDialog domain={dialog.domain} onClose={close} />}
      {dialog.kind === 'check' && <DnsCheckDialog domain={dialog.domain} onClose={close} />}
      {dialog.kind === 'provider' && <DnsProviderDialog domain={dialog.domain} onClose={close} />}
      {dialog.kind === 'verify' && <VerifyDomainDialog domain={dialog.domain} onClose={close} />}
      {dialog.kind === 'written' && (
        <Modal
          open
          width={1100}
          title={t('已写入的记录：{displayName}', { displayName: dialog.domain.displayName })}
          onCancel={close}
          footer={
            <Button type="primary" onClick={close}>
              {t('关闭')}
            </Button>
          }
        >
          <DnsRecordTable domain={dialog.domain.name} records={dialog.result.records} />
        </Modal>
      )}
    </>
  );
}
