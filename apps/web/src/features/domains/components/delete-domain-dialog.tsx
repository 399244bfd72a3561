import type { Domain } from '@youju/contract';
import { Alert, Checkbox, Modal, Typography } from 'antd';
import { useState } from 'react';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useDeleteDomain } from '../api/delete-domain';

interface DeleteDomainDialogProps {
  domain: Domain;
  onClose: () => void;
}

/** Deleting a domain with mailboxes needs the forced delete, which takes its mailboxes and mail along. */
export function DeleteDomainDialog({ domain, onClose }: DeleteDomainDialogProps) {
  const [force, setForce] = useState(false);
  const remove = useDeleteDomain(() => {
    showSuccessMessage(t('已删除域名 {displayName}', { displayName: domain.displayName }));
    onClose();
  });
  return (
    <Modal
      open
      title={t('删除域名 {displayName}？', { displayName: domain.displayName })}
      okText={force ? t('强制删除') : t('删除')}
      cancelText={t('取消')}
      okButtonProps={{ danger: true, loading: remove.isPending }}
      onOk={() => remove.mutate({ id: domain.id, force })}
      onCancel={onClose}
    >
      <Typography.Paragraph>
        {t('删除后该域名不再收信，它的 DKIM 密钥和 DNS 服务商设置也会一并删除。')}
      </Typography.Paragraph>
      <Alert
        type="warning"
        showIcon
        title={t('该域名下还有邮箱时，普通删除会被拒绝')}
        description={t('勾选“强制删除”会同时删除该域名下的全部邮箱及其所有邮件，且无法恢复。')}
      />
      <Checkbox
        style={{ marginTop: 12 }}
        checked={force}
        onChange={(event) => setForce(event.target.checked)}
      >
        {t('强制删除（同时删除全部邮箱和邮件）')}
      </Checkbox>
    </Modal>
  );
}
