import type { Domain } from '@youju/contract';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useVerifyDomain } from '../api/verify-domain';

interface VerifyDomainDialogProps {
  domain: Domain;
  onClose: () => void;
}

/**
 * A pending domain's ownership check: the TXT record to publish at the domain's DNS provider, and
 * 验证. Until it passes the domain receives no mail and gets no addresses, so that nobody can claim
 * another person's domain and read its mail.
 */
export function VerifyDomainDialog({ domain, onClose }: VerifyDomainDialogProps) {
  const verify = useVerifyDomain();
  const record = domain.verification;
  const run = () =>
    verify.mutateAsync(domain.id).then((result) => {
      if (result.status === 'active') {
        showSuccessMessage(
          t('{displayName} 已通过验证，现在可以收信和创建邮箱了', { displayName: domain.displayName }),
        );
        onClose();
      }
    });

  return (
    <Modal
      open
      width={720}
      title={t('验证域名所有权：{displayName}', { displayName: domain.displayName })}
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('稍后再说')}
        </Button>,
        <Button
          key="verify"
          type="primary"
          loading={verify.isPending}
          onClick={run}
          data-testid="verify-domain"
        >
          {t('验证')}
        </Button>,
      ]}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('域名验证通过前不会收取邮件，也不能创建邮箱')}
        description={t(
          '请在该域名的 DNS 服务商处添加下面这条 TXT 记录，生效后（通常几分钟）点击“验证”。验证通过后这条记录可以保留，也可以删除。',
        )}
      />
      {record ? (
        <Descriptions column={1} bordered size="small" data-testid="verification-record">
          <Descriptions.Item label={t('主机记录（名称）')}>
            <Typography.Text copyable code>
              {record.name}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('记录类型')}>{record.type}</Descriptions.Item>
          <Descriptions.Item label={t('记录值')}>
            <Typography.Text copyable code>
              {record.value}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      ) : null}
    </Modal>
  );
}
