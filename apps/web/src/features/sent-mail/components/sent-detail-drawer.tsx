import { DownloadOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Empty, List, Spin, Table, Typography } from 'antd';
import DOMPurify from 'dompurify';
import { useState } from 'react';
import { TimeText } from '../../../components/time-text';
import { formatBytes } from '../../../lib/bytes';
import { showErrorMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { downloadSentRaw } from '../api/download-sent';
import { useSentDetail } from '../api/get-sent-detail';
import { deliveryExplanation, StatusTag } from './delivery-tags';

/**
 * The sent message's HTML in a frame without scripts, forms or same-origin rights (sandbox with no
 * allowances), after DOMPurify; remote images stay blocked by the frame's CSP.
 */
function HtmlFrame({ html }: { html: string }) {
  const clean = DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form'], FORBID_ATTR: ['style'] });
  const document = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:"><style>body{font-family:system-ui,sans-serif;font-size:14px;margin:8px;word-break:break-word}</style></head><body>${clean}</body></html>`;
  return (
    <iframe
      title={t('邮件正文')}
      sandbox=""
      srcDoc={document}
      style={{ width: '100%', minHeight: 280, border: '1px solid #f0f0f0', borderRadius: 6 }}
    />
  );
}

export function SentDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const detail = useSentDetail(id);
  const [downloading, setDownloading] = useState(false);
  const data = detail.data;

  const download = async () => {
    if (id === null) return;
    setDownloading(true);
    try {
      await downloadSentRaw(id);
    } catch (error) {
      showErrorMessage(error instanceof Error ? error.message : t('下载失败，请稍后再试'));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      width={760}
      title={data?.subject || t('（无主题）')}
      extra={
        <Button icon={<DownloadOutlined />} loading={downloading} onClick={download}>
          {t('下载原文')}
        </Button>
      }
    >
      {!data ? (
        <Spin />
      ) : (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('发件人')}>{data.from}</Descriptions.Item>
            <Descriptions.Item label={t('收件人')}>{data.to.join(t('、'))}</Descriptions.Item>
            {data.cc && data.cc.length > 0 && (
              <Descriptions.Item label={t('抄送')}>{data.cc.join(t('、'))}</Descriptions.Item>
            )}
            {data.bcc && data.bcc.length > 0 && (
              <Descriptions.Item label={t('密送')}>{data.bcc.join(t('、'))}</Descriptions.Item>
            )}
            <Descriptions.Item label={t('发送时间')}>
              <TimeText value={data.createdAt} />
            </Descriptions.Item>
            {data.size !== undefined && (
              <Descriptions.Item label={t('大小')}>{formatBytes(data.size, 'sent')}</Descriptions.Item>
            )}
          </Descriptions>

          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('投递状态')}
          </Typography.Title>
          <Table
            rowKey="rcpt"
            size="small"
            pagination={false}
            dataSource={data.deliveries}
            columns={[
              { title: t('收件人'), dataIndex: 'rcpt', width: 220 },
              {
                title: t('状态'),
                width: 120,
                render: (_value, delivery) => <StatusTag delivery={delivery} />,
              },
              { title: t('尝试'), dataIndex: 'attempts', width: 60 },
              { title: t('说明'), render: (_value, delivery) => deliveryExplanation(delivery) },
            ]}
          />

          {data.attachments.length > 0 && (
            <List
              style={{ marginTop: 16 }}
              size="small"
              header={<Typography.Text strong>{t('附件')}</Typography.Text>}
              dataSource={data.attachments}
              renderItem={(attachment) => (
                <List.Item>
                  <PaperClipOutlined /> {attachment.filename}
                  {t('（{size}）', { size: formatBytes(attachment.size, 'sent') })}
                </List.Item>
              )}
            />
          )}

          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('正文')}
          </Typography.Title>
          {data.html ? (
            <HtmlFrame html={data.html} />
          ) : data.text ? (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{data.text}</Typography.Paragraph>
          ) : (
            <Empty description={t('没有正文')} />
          )}
        </>
      )}
    </Drawer>
  );
}
