import { InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { megabytesToBytes } from '../../../lib/bytes';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useBatchEditEmailAccounts } from '../api/batch-edit-email-accounts';

export type BatchKind = 'extend' | 'quota';

interface BatchDialogProps {
  kind: BatchKind | null;
  ids: number[];
  onClose: () => void;
  onDone: () => void;
}

/** Asks for the number a batch action needs (days to extend, quota in MB) and applies it to all. */
export function BatchDialog({ kind, ids, onClose, onDone }: BatchDialogProps) {
  const [value, setValue] = useState<number | null>(kind === 'extend' ? 30 : 1024);
  const batchMutation = useBatchEditEmailAccounts((result) => {
    showSuccessMessage(t('已修改 {updated} 个邮箱', { updated: result.updated }));
    onDone();
  });
  const extend = kind === 'extend';
  return (
    <Modal
      open={kind !== null}
      title={
        extend
          ? t('为 {count} 个邮箱延长有效期', { count: ids.length })
          : t('为 {count} 个邮箱设置容量', { count: ids.length })
      }
      okText={t('确定')}
      cancelText={t('取消')}
      okButtonProps={{ disabled: value === null }}
      confirmLoading={batchMutation.isPending}
      onCancel={onClose}
      destroyOnHidden
      onOk={() => {
        if (value === null) return;
        batchMutation.mutate(
          extend ? { ids, extendDays: value } : { ids, quotaBytes: megabytesToBytes(value) },
        );
      }}
    >
      <InputNumber
        aria-label={extend ? t('延长天数') : t('容量（MB）')}
        min={extend ? 1 : 0}
        max={extend ? 36500 : 1024 * 1024}
        precision={extend ? 0 : 2}
        value={value}
        onChange={setValue}
        suffix={extend ? t('天') : 'MB'}
        style={{ width: 200 }}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {extend
          ? t('已过期的邮箱从现在起计算；永久有效的邮箱保持不变。')
          : t('容量为 0 表示不限。已用空间超过新容量的邮箱将不再收信。')}
      </Typography.Paragraph>
    </Modal>
  );
}
