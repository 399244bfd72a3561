import type { DnsCheckRecord } from '@youju/contract';
import { Table, type TableProps, Typography } from 'antd';
import { t } from '../../../lib/i18n';
import { hostLabel, RecordStatusTag, recordPurpose } from './dns-labels';

interface DnsRecordTableProps {
  domain: string;
  records: DnsCheckRecord[];
  loading?: boolean;
}

/**
 * One row per record: what it is for, where to set it (zone-relative and fully qualified, each with a
 * copy button), what to set, what was found and what to do.
 */
export function DnsRecordTable({ domain, records, loading }: DnsRecordTableProps) {
  const columns: TableProps<DnsCheckRecord>['columns'] = [
    {
      title: t('用途'),
      key: 'kind',
      width: 130,
      render: (_value, record) => recordPurpose()[record.kind ?? ''] ?? record.kind ?? record.type,
    },
    { title: t('类型'), dataIndex: 'type', width: 70 },
    {
      title: t('主机记录'),
      key: 'name',
      width: 220,
      // Zone-relative for the provider's form, fully qualified (final dot) for zone files and dig.
      render: (_value, record) => {
        const host = record.host ?? hostLabel(record.name, domain);
        const fqdn = record.fqdn ?? `${record.name}.`;
        return (
          <div style={{ wordBreak: 'break-all' }}>
            <Typography.Text
              copyable={{ text: host, tooltips: [t('复制主机记录'), t('已复制')] }}
              data-testid="record-host"
            >
              {host}
            </Typography.Text>
            <br />
            <Typography.Text
              type="secondary"
              style={{ fontSize: 12 }}
              copyable={{ text: fqdn, tooltips: [t('复制完整域名'), t('已复制')] }}
              data-testid="record-fqdn"
            >
              {fqdn}
            </Typography.Text>
          </div>
        );
      },
    },
    {
      title: t('应设置的值'),
      dataIndex: 'expected',
      width: 300,
      render: (value: string) => (
        <Typography.Paragraph copyable={{ text: value }} style={{ marginBottom: 0, wordBreak: 'break-all' }}>
          {value}
        </Typography.Paragraph>
      ),
    },
    {
      title: t('当前查到'),
      dataIndex: 'found',
      width: 240,
      render: (found: string[]) =>
        found.length === 0 ? (
          <Typography.Text type="secondary">{t('无')}</Typography.Text>
        ) : (
          found.map((value) => (
            <div key={value} style={{ wordBreak: 'break-all' }}>
              {value}
            </div>
          ))
        ),
    },
    {
      title: t('状态'),
      dataIndex: 'status',
      width: 90,
      render: (status: DnsCheckRecord['status']) => <RecordStatusTag status={status} />,
    },
    { title: t('说明'), dataIndex: 'detail', width: 320, render: (detail?: string) => detail ?? '' },
  ];
  return (
    <Table<DnsCheckRecord>
      rowKey={(record) => `${record.kind ?? record.type}:${record.name}`}
      columns={columns}
      dataSource={records}
      loading={loading}
      pagination={false}
      size="small"
      tableLayout="fixed"
      scroll={{ x: 1370 }}
      locale={{ emptyText: t('暂无结果') }}
    />
  );
}
