import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { DraftItem } from '@youju/contract';
import { Button, Card, List, Popconfirm, Space, Typography } from 'antd';
import { formatTime } from '../../../lib/dates';
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
      title={`草稿（${items.length}）`}
      style={{ marginBottom: 16 }}
      data-testid="compose-drafts"
      styles={{ body: { padding: 0, maxHeight: 220, overflowY: 'auto' } }}
    >
      <List
        size="small"
        dataSource={items}
        renderItem={(item) => {
          const subject = item.subject || '（无主题）';
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
                  aria-label={`继续编辑 ${subject}`}
                  onClick={() => onPick(item)}
                >
                  继续编辑
                </Button>,
                <Popconfirm
                  key="delete"
                  title="删除这封草稿？"
                  okText="删除"
                  cancelText="取消"
                  onConfirm={() => remove.mutateAsync(item.id)}
                >
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`删除草稿 ${subject}`}
                  />
                </Popconfirm>,
              ]}
            >
              <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis>
                  {subject}
                </Typography.Text>
                <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                  {item.to.length > 0 ? `致 ${item.to.join('、')}` : '未填收件人'} ·{' '}
                  {formatTime(item.savedAt)} 保存
                </Typography.Text>
              </Space>
            </List.Item>
          );
        }}
      />
    </Card>
  );
}
