import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Spin } from 'antd';
import { formatBytes } from '../../../lib/bytes';
import { t } from '../../../lib/i18n';
import { saveBlob } from '../../../lib/save-blob';
import { useRawSource } from '../api/get-raw-source';

interface RawSourceDialogProps {
  messageId: number;
  onClose: () => void;
}

/** 查看原文: the message exactly as received, with a download of the .eml file. */
export function RawSourceDialog({ messageId, onClose }: RawSourceDialogProps) {
  const raw = useRawSource(messageId, true);
  return (
    <Modal
      open
      title={t('邮件原文')}
      width={900}
      onCancel={onClose}
      footer={[
        <Button
          key="download"
          icon={<DownloadOutlined />}
          disabled={!raw.data}
          onClick={() => raw.data && saveBlob(raw.data.blob, t('邮件-{id}.eml', { id: messageId }))}
        >
          {t('下载原文（.eml）')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('关闭')}
        </Button>,
      ]}
    >
      {raw.isPending ? <Spin description={t('正在读取原文…')} /> : null}
      {raw.isError ? (
        <Alert type="error" showIcon title={t('原文读取失败')} description={raw.error.message} />
      ) : null}
      {raw.data ? (
        <>
          {raw.data.truncated ? (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 8 }}
              title={t('原文共 {size}，这里只显示开头部分，完整内容请下载。', {
                size: formatBytes(raw.data.size, 'received'),
              })}
            />
          ) : null}
          <pre
            data-testid="raw-source"
            style={{
              maxHeight: '60vh',
              overflow: 'auto',
              background: '#fafafa',
              padding: 12,
              fontSize: 12,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
          >
            {raw.data.text}
          </pre>
        </>
      ) : null}
    </Modal>
  );
}
