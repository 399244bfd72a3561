import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { DraftItem } from '@youju/contract';
import { Button, Card, List, Popconfirm, Space, Typography } from 'antd';
import { formatTime } from '../../../lib/dates';
import { t } from '../../../lib/i18n';
import { useDeleteDraft } from '../api/delete-draft';
import { useDrafts } from '../api/get-drafts';

/**
 * The drafts kept on the server (the Drafts folders of the caller's mailboxes), shown above a new
 * message: 继续编辑 loads one into the drawer, 删除 removes it. Nothing shows without drafts.
 */
export function DraftList({
  onPick,
  picking,
  exclude,
}: {
  onPick: (draft: DraftItem) => void;
  /** the draft being loaded, whose button spins */
  picking: number | null;
  /** the draft the open form writes to (it is already on screen) */
  exclude?: number;
}) {
  const drafts = useDrafts();
  const remove = useDeleteDraft();
  const items = (drafts.data?.list ?? []).filter((item) => item.id !== exclude);
  if (items.length === 0) return null;
  return (
    <Card
      size="small"
      title={t('草稿（{count}）', { count: items.length })}
      style={{ marginBottom: 16 }}
      data-testid="compose-drafts"
      styles={{ body: { padding: 0, maxHeight: 220, overflowY: 'auto' } }}
    >
      <List
        size="small"
        dataSource={items}
        renderItem={(item) => {
          const subject = item.subject || t('（无主题）');
          return (
            <List.Item
              data-testid="compose-draft"
              actions={[
                <Button
                  key="edit"
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  loading={picking === item.id}
                  aria-label={t('继续编辑 {subject}', { subject })}
                  onClick={() => onPick(item)}
                >
                  {t('继续编辑')}
                </Button>,
                <Popconfirm
                  key="delete"
                  title={t('删除这封草稿？')}
                  okText={t('删除')}
                  cancelText={t('取消')}
                  onConfirm={() => remove.mutateAsync(item.id)}
                >
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('删除草稿 {subject}', { subject })}
                  />
                </Popconfirm>,
              ]}
            >
              <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis>
                  {subject}
                </Typography.Text>
                <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                  {item.to.length > 0
                    ? t('致 {recipients} · {time} 保存', {
                        recipients: item.to.join(t('、')),
                        time: formatTime(item.savedAt),
                      })
                    : t('未填收件人 · {time} 保存', { time: formatTime(item.savedAt) })}
                </Typography.Text>
              </Space>
            </List.Item>
          );
        }}
      />
    </Card>
  );
}
