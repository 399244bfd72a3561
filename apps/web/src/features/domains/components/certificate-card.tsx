import { ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import type { AcmeStatus, Certificate } from '@youju/contract';
import { Button, Card, Descriptions, Empty, Space, Tag, Typography } from 'antd';
import { TimeText } from '../../../components/time-text';
import { dayjs } from '../../../lib/dates';
import { showSuccessMessage } from '../../../lib/feedback';
import { useCertificates, useReloadCertificates, useRenewCertificates } from '../api/certificates';

const statusLabels: Record<string, { text: string; color: string }> = {
  ok: { text: '使用中', color: 'success' },
  expired: { text: '已过期', color: 'error' },
  mismatch: { text: '私钥不匹配', color: 'error' },
  invalid: { text: '无法读取', color: 'error' },
  missing: { text: '尚未签发', color: 'warning' },
};

const acmeStateLabels: Record<AcmeStatus['state'], { text: string; color: string }> = {
  valid: { text: '有效', color: 'success' },
  renewing: { text: '续期中', color: 'processing' },
  failed: { text: '签发失败', color: 'error' },
  pending: { text: '等待签发', color: 'warning' },
};

function daysLeft(notAfter: string): string {
  const days = dayjs(notAfter).diff(dayjs(), 'day');
  return days < 0 ? '（已过期）' : `（剩余 ${days} 天）`;
}

/** One certificate: where it comes from, who issued it, until when, and for ACME what happens next. */
function CertificateDetails({ certificate }: { certificate: Certificate }) {
  const status = statusLabels[certificate.status ?? 'ok'] ?? { text: '未知', color: 'default' };
  const acme = certificate.acme;
  const items = [
    { key: 'hostnames', label: '主机名', children: certificate.hostnames.join('、') || '—' },
    {
      key: 'source',
      label: '来源',
      children: certificate.source === 'acme' ? <Tag color="blue">ACME 自动</Tag> : <Tag>手动</Tag>,
    },
    { key: 'issuer', label: '签发者', children: certificate.issuer || '—' },
    {
      key: 'expiry',
      label: '到期时间',
      children: certificate.notAfter ? (
        <span>
          <TimeText value={certificate.notAfter} data-testid="certificate-expiry" />
          {daysLeft(certificate.notAfter)}
        </span>
      ) : (
        '—'
      ),
    },
    { key: 'status', label: '状态', children: <Tag color={status.color}>{status.text}</Tag> },
  ];
  if (certificate.detail && certificate.status !== 'missing') {
    items.push({ key: 'detail', label: '说明', children: certificate.detail });
  }
  if (acme) {
    const state = acmeStateLabels[acme.state];
    items.push(
      {
        key: 'acme-state',
        label: 'ACME 状态',
        children: (
          <Tag color={state.color} data-testid="acme-state">
            {state.text}
          </Tag>
        ),
      },
      { key: 'challenge', label: '验证方式', children: acme.challenge === 'dns-01' ? 'DNS-01' : 'HTTP-01' },
      {
        key: 'last-attempt',
        label: '上次尝试',
        children: <TimeText value={acme.lastAttemptAt} fallback="尚未尝试" />,
      },
      {
        key: 'last-success',
        label: '上次成功',
        children: <TimeText value={acme.lastSuccessAt} fallback="尚未成功" />,
      },
      {
        key: 'next-renewal',
        label: acme.state === 'failed' ? '下次重试' : '下次续期',
        children: <TimeText value={acme.nextRenewalAt} data-testid="acme-next-renewal" />,
      },
    );
    if (acme.lastError) {
      items.push({
        key: 'last-error',
        label: '最近错误',
        children: (
          <Typography.Text type="danger" data-testid="acme-error" style={{ wordBreak: 'break-word' }}>
            {acme.lastError}
          </Typography.Text>
        ),
      });
    }
  }
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 3, xxl: 3 }}
      title={
        <span style={{ wordBreak: 'break-all' }}>{certificate.directory ?? certificate.hostnames[0]}</span>
      }
      items={items}
      style={{ marginBottom: 16 }}
      data-testid="certificate"
    />
  );
}

/**
 * TLS certificates (administrators only: the card is shown with Permission.certificates): the
 * folders of DATA_DIR/certs and the ACME-managed one, with live reload and 立即续期.
 */
export function CertificateCard() {
  const certificatesQuery = useCertificates(true);
  const certificates = certificatesQuery.data?.certificates ?? [];
  const reload = useReloadCertificates((data) =>
    showSuccessMessage(`已重新加载 ${data.certificates.length} 个证书，新连接将使用新证书`),
  );
  const renew = useRenewCertificates(() => showSuccessMessage('已开始向 CA 申请证书，完成后此处自动更新'));
  const acme = certificates.find((entry) => entry.source === 'acme');
  return (
    <Card
      title="TLS 证书"
      style={{ marginTop: 16 }}
      loading={certificatesQuery.isPending}
      extra={
        <Space wrap>
          {acme && (
            <Button
              icon={<SyncOutlined />}
              loading={renew.isPending}
              disabled={acme.acme?.state === 'renewing'}
              onClick={() => renew.mutate()}
            >
              立即续期
            </Button>
          )}
          <Button icon={<ReloadOutlined />} loading={reload.isPending} onClick={() => reload.mutate()}>
            重新加载证书
          </Button>
        </Space>
      }
    >
      {certificates.length === 0 ? (
        <Empty description="暂无证书：请把 fullchain.pem 和 privkey.pem 放到数据目录的 certs/<主机名>/ 下，再点击“重新加载证书”；或设置 ACME_EMAIL 自动签发" />
      ) : (
        certificates.map((certificate) => (
          <CertificateDetails
            key={certificate.directory ?? certificate.hostnames.join(',')}
            certificate={certificate}
          />
        ))
      )}
    </Card>
  );
}
