import type { DnsRecordsData, Domain } from '@youju/contract';
import { Alert, Button, Modal, Space } from 'antd';
import { useEffect, useState } from 'react';
import { TimeText } from '../../../components/time-text';
import { t } from '../../../lib/i18n';
import { useCheckDns } from '../api/check-dns';
import { DnsStatusTag } from './dns-labels';
import { DnsRecordTable } from './dns-record-table';

interface DnsCheckDialogProps {
  domain: Domain;
  onClose: () => void;
}

/** Runs checkDNS when opened and explains, record by record, what to set where. */
export function DnsCheckDialog({ domain, onClose }: DnsCheckDialogProps) {
  const [result, setResult] = useState<DnsRecordsData | null>(null);
  const check = useCheckDns();
  const { mutate } = check;

  useEffect(() => {
    mutate(domain.id, { onSuccess: setResult });
  }, [mutate, domain.id]);

  return (
    <Modal
      open
      width={1100}
      title={t('检查 DNS：{displayName}', { displayName: domain.displayName })}
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={() => check.mutate(domain.id, { onSuccess: setResult })} loading={check.isPending}>
            {t('重新检查')}
          </Button>
          <Button type="primary" onClick={onClose}>
            {t('关闭')}
          </Button>
        </Space>
      }
    >
      {result?.hostnameWarning && (
        <Alert
          style={{ marginBottom: 12 }}
          type="error"
          showIcon
          title={t('邮件服务器主机名（MAIL_HOSTNAME）有问题')}
          description={result.hostnameWarning}
          data-testid="hostname-warning"
        />
      )}
      {result && (
        <Alert
          style={{ marginBottom: 12 }}
          type={result.dnsStatus === 'ok' ? 'success' : 'warning'}
          showIcon
          title={
            <Space>
              <span>{t('检查结果')}</span>
              {result.dnsStatus && <DnsStatusTag status={result.dnsStatus} />}
              {result.checkedAt && (
                <span>
                  {t('（')}
                  <TimeText value={result.checkedAt} />
                  {t('）')}
                </span>
              )}
            </Space>
          }
          description={t(
            '请按“说明”一栏到域名的 DNS 解析处添加或修改记录。DNS 生效通常需要几分钟到几小时，修改后可点击“重新检查”。',
          )}
        />
      )}
      <DnsRecordTable domain={domain.name} records={result?.records ?? []} loading={check.isPending} />
    </Modal>
  );
}
