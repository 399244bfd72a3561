import { ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import type { AcmeStatus, Certificate } from '@youju/contract';
import { Button, Card, Descriptions, Empty, Space, Tag, Typography } from 'antd';
import { TimeText } from '../../../components/time-text';
import { dayjs } from '../../../lib/dates';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useCertificates, useReloadCertificates, useRenewCertificates } from '../api/certificates';

const statusLabels = (): Record<string, { text: string; color: string }> => ({
  ok: { text: t('使用中'), color: 'success' },
  expired: { text: t('已过期'), color: 'error' },
  mismatch: { text: t('私钥不匹配'), color: 'error' },
  invalid: { text: t('无法读取'), color: 'error' },
  missing: { text: t('尚未签发'), color: 'warning' },
});

const acmeStateLabels = (): Record<AcmeStatus['state'], { text: string; color: string }> => ({
  valid: { text: t('有效'), color: 'success' },
  renewing: { text: t('续期中'), color: 'processing' },
  failed: { text: t('签发失败'), color: 'error' },
  pending: { text: t('等待签发'), color: 'warning' },
});

function daysLeft(notAfter: string): string {
  const days = dayjs(notAfter).diff(dayjs(), 'day');
  return days < 0 ? t('（已过期）') : t('（剩余 {days} 天）', { days });
}

/** One certificate: where it comes from, who issued it, until when, and for ACME what happens next. */
function CertificateDetails({ certificate }: { certificate: Certificate }) {
  const status = statusLabels()[certificate.status ?? 'ok'] ?? { text: t('未知'), color: 'default' };
  const acme = certificate.acme;
  const items = [
    { key: 'hostnames', label: t('主机名'), children: certificate.hostnames.join(t('、')) || '—' },
    {
      key: 'source',
      label: t('来源'),
      children:
        certificate.source === 'acme' ? <Tag color="blue">{t('ACME 自动')}</Tag> : <Tag>{t('手动')}</Tag>,
    },
    { key: 'issuer', label: t('签发者'), children: certificate.issuer || '—' },
    {
      key: 'expiry',
      label: t('到期时间'),
      children: certificate.notAfter ? (
        <span>
          <TimeText value={certificate.notAfter} data-testid="certificate-expiry" />
          {daysLeft(certificate.notAfter)}
        </span>
      ) : (
        '—'
      ),
    },
    { key: 'status', label: t('状态'), children: <Tag color={status.color}>{status.text}</Tag> },
  ];
  if (certificate.detail && certificate.status !== 'missing') {
    items.push({ key: 'detail', label: t('说明'), children: certificate.detail });
  }
  if (acme) {
    const state = acmeStateLabels()[acme.state];
    items.push(
      {
        key: 'acme-state',
        label: t('ACME 状态'),
        children: (
          <Tag color={state.color} data-testid="acme-state">
            {state.text}
          </Tag>
        ),
      },
      {
        key: 'challenge',
        label: t('验证方式'),
        children: acme.challenge === 'dns-01' ? 'DNS-01' : 'HTTP-01',
      },
      {
        key: 'last-attempt',
        label: t('上次尝试'),
        children: <TimeText value={acme.lastAttemptAt} fallback={t('尚未尝试')} />,
      },
      {
        key: 'last-success',
        label: t('上次成功'),
        children: <TimeText value={acme.lastSuccessAt} fallback={t('尚未成功')} />,
      },
      {
        key: 'next-renewal',
        label: acme.state === 'failed' ? t('下次重试') : t('下次续期'),
        children: <TimeText value={acme.nextRenewalAt} data-testid="acme-next-renewal" />,
      },
    );
    if (acme.lastError) {
      items.push({
        key: 'last-error',
        label: t('最近错误'),
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
    showSuccessMessage(
      t('已重新加载 {count} 个证书，新连接将使用新证书', { count: data.certificates.length }),
    ),
  );
  const renew = useRenewCertificates(() => showSuccessMessage(t('已开始向 CA 申请证书，完成后此处自动更新')));
  const acme = certificates.find((entry) => entry.source === 'acme');
  return (
    <Card
      title={t('TLS 证书')}
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
              {t('立即续期')}
            </Button>
          )}
          <Button icon={<ReloadOutlined />} loading={reload.isPending} onClick={() => reload.mutate()}>
            {t('重新加载证书')}
          </Button>
        </Space>
      }
    >
      {certificates.length === 0 ? (
        <Empty
          description={t(
            '暂无证书：请把 fullchain.pem 和 privkey.pem 放到数据目录的 certs/<主机名>/ 下，再点击“重新加载证书”；或设置 ACME_EMAIL 自动签发',
          )}
        />
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
