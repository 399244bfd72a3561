import { PaperClipOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import type { MailItem } from '@youju/contract';
import { Button, Checkbox, Empty, List, Space, Tag, Tooltip, Typography } from 'antd';
import { TimeText } from '../../../components/time-text';
import { t } from '../../../lib/i18n';
import { useUpdateEmail } from '../api/update-email';
import { CodeCopy } from './code-copy';

interface MessageListProps {
  items: MailItem[];
  total: number;
  page: number;
  pageSize: number;
  loading: boolean;
  selectedId: number | null;
  /** show which address each message went to (when viewing all addresses) */
  showAddress: boolean;
  /** filters or search are active: an empty list means "nothing matches", not "no mail" */
  filtered: boolean;
  onSelect: (item: MailItem) => void;
  /** the rows checked for a bulk action */
  checkedIds: ReadonlySet<number>;
  onToggleChecked: (id: number) => void;
  onPageChange: (page: number, pageSize: number) => void;
}

function senderName(item: MailItem): string {
  return item.from.name || item.from.address || t('（未知发件人）');
}

function StarToggle({ item }: { item: MailItem }) {
  const update = useUpdateEmail();
  return (
    <Tooltip title={item.starred ? t('取消星标') : t('加星标')}>
      <Button
        type="text"
        size="small"
        aria-label={item.starred ? t('取消星标') : t('加星标')}
        icon={item.starred ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
        loading={update.isPending}
        onClick={(event) => {
          event.stopPropagation();
          update.mutate({ id: item.id, starred: !item.starred });
        }}
      />
    </Tooltip>
  );
}

/** The received mail, newest first: unread in bold, starred marked, paged. */
export function MessageList(props: MessageListProps) {
  const { items, selectedId, showAddress } = props;
  return (
    <List<MailItem>
      data-testid="message-list"
      loading={props.loading}
      dataSource={items}
      locale={{
        emptyText: (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              props.filtered ? (
                t('没有符合条件的邮件')
              ) : (
                <>
                  <Typography.Paragraph strong>{t('暂无邮件')}</Typography.Paragraph>
                  <Typography.Paragraph type="secondary">
                    {t('发送到你的邮箱地址的邮件会出现在这里。')}
                  </Typography.Paragraph>
                </>
              )
            }
          />
        ),
      }}
      pagination={
        props.total > props.pageSize
          ? {
              current: props.page,
              pageSize: props.pageSize,
              total: props.total,
              size: 'small',
              showSizeChanger: false,
              showTotal: (total) => t('共 {count} 封', { count: total }),
              onChange: props.onPageChange,
            }
          : false
      }
      renderItem={(item) => {
        const unread = !item.read;
        const active = item.id === selectedId;
        return (
          <List.Item
            key={item.id}
            data-testid="message-item"
            data-id={item.id}
            data-unread={unread ? 'true' : 'false'}
            data-checked={props.checkedIds.has(item.id) ? 'true' : 'false'}
            onClick={(event) => {
              // A click on the check box (or the touch-sized frame around it) checks the row only.
              if (event.target instanceof Element && event.target.closest('.inbox-check')) return;
              props.onSelect(item);
            }}
            style={{
              cursor: 'pointer',
              padding: '10px 12px',
              background: active ? '#e6f4ff' : props.checkedIds.has(item.id) ? '#fffbe6' : undefined,
              borderInlineStart: `3px solid ${unread ? '#1677ff' : 'transparent'}`,
            }}
          >
            <div style={{ display: 'flex', gap: 8, width: '100%', minWidth: 0 }}>
              <Checkbox
                className="inbox-check"
                aria-label={t('选择：{subject}', { subject: item.subject || t('（无主题）') })}
                data-testid="message-check"
                checked={props.checkedIds.has(item.id)}
                onChange={() => props.onToggleChecked(item.id)}
              />
              <StarToggle item={item} />
              <div style={{ flex: 1, minWidth: 0 }}>
                <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                  <Typography.Text strong={unread} ellipsis style={{ minWidth: 0 }}>
                    {senderName(item)}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ flexShrink: 0, fontSize: 12 }}>
                    <TimeText value={item.receivedAt} fallback="" />
                  </Typography.Text>
                </div>
                <Space size={4} style={{ display: 'flex', minWidth: 0 }}>
                  {item.hasAttachments ? <PaperClipOutlined aria-label={t('有附件')} /> : null}
                  {item.spam ? <Tag color="orange">{t('垃圾邮件')}</Tag> : null}
                  <Typography.Text strong={unread} ellipsis data-testid="message-subject">
                    {item.subject || t('（无主题）')}
                  </Typography.Text>
                </Space>
                <Typography.Text type="secondary" ellipsis style={{ display: 'block', fontSize: 12 }}>
                  {item.snippet}
                </Typography.Text>
                {item.code ? (
                  <div style={{ marginTop: 4 }}>
                    <CodeCopy code={item.code} />
                  </div>
                ) : null}
                {showAddress ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('收件地址：{address}', { address: item.address })}
                  </Typography.Text>
                ) : null}
              </div>
            </div>
          </List.Item>
        );
      }}
    />
  );
}
