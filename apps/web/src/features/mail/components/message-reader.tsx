import {
  DeleteOutlined,
  DownloadOutlined,
  EyeInvisibleOutlined,
  FileTextOutlined,
  InboxOutlined,
  PaperClipOutlined,
  StarFilled,
  StarOutlined,
  StopOutlined,
} from '@ant-design/icons';
import type { MailDetail, Person } from '@youju/contract';
import { Alert, Button, Descriptions, Empty, List, Popconfirm, Skeleton, Space, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { downloadAttachment } from '../../../api/attachments';
import { TimeText } from '../../../components/time-text';
import { formatBytes } from '../../../lib/bytes';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { t, tc } from '../../../lib/i18n';
import { saveBlob } from '../../../lib/save-blob';
import { useDeleteEmails } from '../api/delete-emails';
import { useEmail } from '../api/get-email';
import { useSetRead } from '../api/set-read';
import { useUpdateEmail } from '../api/update-email';
import { AuthBadge, senderTrust } from './auth-badge';
import { CodeCopy } from './code-copy';
import { MailFrame } from './mail-frame';
import { RawSourceDialog } from './raw-source-dialog';

interface MessageReaderProps {
  messageId: number;
  /** actions composed by the screen (e.g. reply and forward), shown in the toolbar */
  extraActions?: (detail: MailDetail) => ReactNode;
  onClosed: () => void;
}

export function personText(person: Person): string {
  if (!person.name) return person.address;
  return person.address ? `${person.name} <${person.address}>` : person.name;
}

function peopleText(people: Person[]): string {
  return people.map(personText).join(t('，'));
}

function AttachmentList({ detail }: { detail: MailDetail }) {
  const [downloading, setDownloading] = useState<string | null>(null);
  if (detail.attachments.length === 0) return null;
  const download = async (id: string, filename: string) => {
    setDownloading(id);
    try {
      saveBlob(await downloadAttachment(id), filename || tc('filename', '附件'));
    } catch (error) {
      showErrorMessage(error instanceof Error ? error.message : t('附件下载失败，请稍后再试'));
    } finally {
      setDownloading(null);
    }
  };
  return (
    <List
      size="small"
      header={
        <Space>
          <PaperClipOutlined />
          {t('附件（{count}）', { count: detail.attachments.length })}
        </Space>
      }
      dataSource={detail.attachments}
      renderItem={(attachment) => (
        <List.Item
          data-testid="attachment"
          actions={[
            <Button
              key="download"
              size="small"
              icon={<DownloadOutlined />}
              loading={downloading === attachment.id}
              onClick={() => void download(attachment.id, attachment.filename)}
            >
              {t('下载')}
            </Button>,
          ]}
        >
          <Typography.Text>{attachment.filename || t('（未命名附件）')}</Typography.Text>
          <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
            {formatBytes(attachment.size, 'received')}
            {attachment.inline ? t('，正文内嵌') : ''}
          </Typography.Text>
        </List.Item>
      )}
      style={{ marginTop: 12 }}
    />
  );
}

/** The open message: who, when, the body (sandboxed HTML or text), attachments and actions. */
export function MessageReader({ messageId, extraActions, onClosed }: MessageReaderProps) {
  const email = useEmail(messageId);
  const [showRaw, setShowRaw] = useState(false);
  const setRead = useSetRead();
  const update = useUpdateEmail();
  const remove = useDeleteEmails(() => {
    showSuccessMessage(t('邮件已删除'));
    onClosed();
  });

  if (email.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (email.isError) return <Empty description={email.error.message} />;
  const detail = email.data;

  return (
    <div data-testid="message-reader">
      <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="reader-subject">
        {detail.subject || t('（无主题）')}
      </Typography.Title>
      {detail.code ? (
        <Space style={{ marginBottom: 12 }}>
          <Typography.Text type="secondary">{t('验证码')}</Typography.Text>
          <CodeCopy code={detail.code} size="middle" />
        </Space>
      ) : null}
      <Space wrap style={{ marginBottom: 12 }}>
        {extraActions?.(detail)}
        <Button
          icon={<EyeInvisibleOutlined />}
          loading={setRead.isPending}
          onClick={() =>
            setRead.mutate(
              { ids: [detail.id], read: false },
              { onSuccess: () => showSuccessMessage(t('已标为未读')) },
            )
          }
        >
          {t('标为未读')}
        </Button>
        <Button
          icon={detail.starred ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
          loading={update.isPending}
          onClick={() => update.mutate({ id: detail.id, starred: !detail.starred })}
        >
          {detail.starred ? t('取消星标') : t('加星标')}
        </Button>
        <Button
          icon={detail.spam ? <InboxOutlined /> : <StopOutlined />}
          loading={update.isPending}
          data-testid="spam-toggle"
          onClick={() =>
            update.mutate(
              { id: detail.id, spam: !detail.spam },
              {
                onSuccess: () => {
                  showSuccessMessage(detail.spam ? t('已移回收件箱') : t('已移到垃圾邮件'));
                  onClosed();
                },
              },
            )
          }
        >
          {detail.spam ? t('不是垃圾邮件') : t('标记为垃圾邮件')}
        </Button>
        <Button icon={<FileTextOutlined />} onClick={() => setShowRaw(true)}>
          {t('查看原文')}
        </Button>
        <Popconfirm
          title={t('删除这封邮件？')}
          description={t('删除后无法恢复。')}
          okText={t('删除')}
          cancelText={t('取消')}
          okButtonProps={{ danger: true, loading: remove.isPending }}
          onConfirm={() => remove.mutate([detail.id])}
        >
          <Button danger icon={<DeleteOutlined />}>
            {t('删除')}
          </Button>
        </Popconfirm>
      </Space>
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 12 }}
        items={[
          {
            key: 'from',
            label: t('发件人'),
            children: (
              <span>
                <span data-testid="reader-from">{personText(detail.from)}</span>
                <AuthBadge auth={detail.auth} />
              </span>
            ),
          },
          { key: 'to', label: t('收件人'), children: peopleText(detail.to) || detail.address },
          ...(detail.cc.length > 0 ? [{ key: 'cc', label: t('抄送'), children: peopleText(detail.cc) }] : []),
          {
            key: 'time',
            label: tc('reader', '时间'),
            children: <TimeText value={detail.receivedAt} fallback="" data-testid="reader-time" />,
          },
        ]}
      />
      {detail.spam ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          title={
            senderTrust(detail.auth) === 'forged'
              ? t('发件人未通过 SPF/DMARC 验证，这封邮件已放入垃圾邮件')
              : t('这封邮件被标记为垃圾邮件')
          }
        />
      ) : null}
      {detail.html ? (
        <MailFrame key={detail.id} html={detail.html} />
      ) : detail.text ? (
        <pre
          data-testid="mail-text"
          style={{
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
            fontFamily: 'inherit',
            fontSize: 14,
            background: '#fafafa',
            padding: 12,
            borderRadius: 6,
            margin: 0,
          }}
        >
          {detail.text}
        </pre>
      ) : (
        <Typography.Paragraph type="secondary">{t('（这封邮件没有正文）')}</Typography.Paragraph>
      )}
      <AttachmentList detail={detail} />
      {showRaw ? <RawSourceDialog messageId={detail.id} onClose={() => setShowRaw(false)} /> : null}
    </div>
  );
}
