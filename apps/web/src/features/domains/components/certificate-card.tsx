import { ReloadOutlined } from '@ant-design/icons';
import type { Certificate } from '@youju/contract';
import { Button, Card, Table, type TableProps, Tag, Tooltip } from 'antd';
import { dayjs, formatTime } from '../../../lib/dates';
import { showSuccessMessage } from '../../../lib/feedback';
import { useCertificates, useReloadCertificates } from '../api/certificates';

const statusLabels: Record<string, { text: string; color: string }> = {
  ok: { text: '使用中', color: 'success' },
  expired: { text: '已过期', color: 'error' },
  mismatch: { text: '私钥不匹配', color: 'error' },
  invalid: { text: '无法读取', color: 'error' },
};

function expiryText(notAfter: string | null): string {
  if (!notAfter) return '—';
  const days = dayjs(notAfter).diff(dayjs(), 'day');
  return days < 0 ? `${formatTime(notAfter)}（已过期）` : `${formatTime(notAfter)}（剩余 ${days} 天）`;
}

/** TLS certificates of DATA_DIR/certs (administrators): host names, expiry, status, live reload. */
export function CertificateCard() {
  const certificatesQuery = useCertificates(true);
  const reload = useReloadCertificates((data) =>
    showSuccessMessage(`已重新加载 ${data.certificates.length} 个证书，新连接将使用新证书`),
  );
  const columns: TableProps<Certificate>['columns'] = [
    { title: '目录', dataIndex: 'directory' },
    { title: '主机名', dataIndex: 'hostnames', render: (names: string[]) => names.join('、') },
    {
      title: '到期时间',
      dataIndex: 'notAfter',
      render: (notAfter: string | null) => expiryText(notAfter),
    },
    {
      title: '状态',
      dataIndex: 'status',
      render: (status: string | undefined, certificate) => {
        const label = statusLabels[status ?? 'ok'] ?? { text: '未知', color: 'default' };
        return (
          <Tooltip title={certificate.detail}>
            <Tag color={label.color}>{label.text}</Tag>
          </Tooltip>
        );
      },
    },
    { title: '说明', dataIndex: 'detail', render: (detail?: string) => detail ?? '' },
  ];
  return (
    <Card
      title="TLS 证书"
      style={{ marginTop: 16 }}
      extra={
        <Button icon={<ReloadOutlined />} loading={reload.isPending} onClick={() => reload.mutate()}>
          重新加载证书
        </Button>
      }
    >
      <Table<Certificate>
        rowKey={(certificate) => certificate.directory ?? certificate.hostnames.join(',')}
        columns={columns}
        dataSource={certificatesQuery.data?.certificates ?? []}
        loading={certificatesQuery.isFetching}
        pagination={false}
        size="small"
        locale={{
          emptyText:
            '暂无证书：请把 fullchain.pem 和 privkey.pem 放到数据目录的 certs/<主机名>/ 下，再点击“重新加载证书”',
        }}
      />
    </Card>
  );
}
