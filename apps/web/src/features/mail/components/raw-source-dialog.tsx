import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Spin } from 'antd';
import { formatBytes } from '../../../lib/bytes';
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
      title="邮件原文"
      width={900}
      onCancel={onClose}
      footer={[
        <Button
          key="download"
          icon={<DownloadOutlined />}
          disabled={!raw.data}
          onClick={() => raw.data && saveBlob(raw.data.blob, `邮件-${messageId}.eml`)}
        >
          下载原文（.eml）
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          关闭
        </Button>,
      ]}
    >
      {raw.isPending ? <Spin description="正在读取原文…" /> : null}
      {raw.isError ? (
        <Alert type="error" showIcon title="原文读取失败" description={raw.error.message} />
      ) : null}
      {raw.data ? (
        <>
          {raw.data.truncated ? (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 8 }}
              title={`原文共 ${formatBytes(raw.data.size, 'received')}，这里只显示开头部分，完整内容请下载。`}
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
