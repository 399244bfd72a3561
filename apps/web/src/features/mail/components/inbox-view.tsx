import { ClearOutlined, MailOutlined, ReloadOutlined } from '@ant-design/icons';
import type { MailDetail, MailItem } from '@youju/contract';
import { Button, Card, Col, Empty, Input, Row, Segmented, Skeleton, Space, Tooltip } from 'antd';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { showInfoMessage } from '../../../lib/feedback';
import { useInbox } from '../api/get-inbox';
import { useMailEvents } from '../api/mail-events';
import { AddressBar } from './address-bar';
import { MessageList } from './message-list';

/** `junk` lists the Junk folder (spam filters, failed sender checks); the others the inbox. */
type ListFilter = 'all' | 'unread' | 'starred' | 'junk';

const PAGE_SIZE = 20;

interface InboxViewProps {
  /** a mailbox session's own address; null for system users */
  mailboxAddress: string | null;
  /** actions the screen composes into the list header (e.g. 写邮件) */
  headerActions?: ReactNode;
  /** actions the screen composes into the open message's toolbar (e.g. reply, forward) */
  readerActions?: (detail: MailDetail) => ReactNode;
  /** a message to open at once (the link in a Telegram notification: /user/inbox?id=) */
  initialMessageId?: number | null;
}

// Fetched when first shown, so that the list comes up sooner: the reader (with its HTML sanitiser)
// once a message is opened, the dialog once it is asked for.
const MessageReader = lazy(() =>
  import('./message-reader').then((module) => ({ default: module.MessageReader })),
);
const DeleteRangeDialog = lazy(() =>
  import('./delete-range-dialog').then((module) => ({ default: module.DeleteRangeDialog })),
);

/** The inbox: whose mail, the list with search and filters, the open message; live as mail arrives. */
export function InboxView({
  mailboxAddress,
  headerActions,
  readerActions,
  initialMessageId,
}: InboxViewProps) {
  const [address, setAddress] = useState('');
  const [filter, setFilter] = useState<ListFilter>('all');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [selectedId, setSelectedId] = useState<number | null>(initialMessageId ?? null);
  const [deletingRange, setDeletingRange] = useState(false);

  const inbox = useInbox({
    page,
    pageSize,
    address: address || undefined,
    unread: filter === 'unread' || undefined,
    starred: filter === 'starred' || undefined,
    folder: filter === 'junk' ? 'junk' : undefined,
    q: search || undefined,
  });

  useMailEvents((item: MailItem) => {
    showInfoMessage(`收到新邮件：${item.subject || '（无主题）'}`, `mail-${item.id}`);
  });

  const changeAddress = (next: string) => {
    setAddress(next);
    setPage(1);
    setSelectedId(null);
  };
  const list = inbox.data?.list ?? [];
  const filtered = filter !== 'all' || search !== '';

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <AddressBar mailboxAddress={mailboxAddress} value={address} onChange={changeAddress} />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10} xl={9}>
          <Card
            size="small"
            title={
              <Space wrap>
                <Segmented<ListFilter>
                  value={filter}
                  onChange={(value) => {
                    setFilter(value);
                    setPage(1);
                  }}
                  options={[
                    { value: 'all', label: '全部' },
                    { value: 'unread', label: '未读' },
                    { value: 'starred', label: '星标' },
                    { value: 'junk', label: '垃圾邮件' },
                  ]}
                />
              </Space>
            }
            extra={
              <Space size={4}>
                {headerActions}
                <Tooltip title="刷新">
                  <Button
                    type="text"
                    aria-label="刷新"
                    icon={<ReloadOutlined />}
                    loading={inbox.isFetching}
                    onClick={() => void inbox.refetch()}
                  />
                </Tooltip>
                <Tooltip title="按时间删除">
                  <Button
                    type="text"
                    aria-label="按时间删除"
                    icon={<ClearOutlined />}
                    onClick={() => setDeletingRange(true)}
                  />
                </Tooltip>
              </Space>
            }
          >
            <Input.Search
              allowClear
              placeholder="搜索主题、发件人或正文"
              aria-label="搜索邮件"
              enterButton="搜索"
              onSearch={(value) => {
                setSearch(value.trim());
                setPage(1);
              }}
              style={{ marginBottom: 8 }}
            />
            <MessageList
              items={list}
              total={inbox.data?.total ?? 0}
              page={page}
              pageSize={pageSize}
              loading={inbox.isPending}
              selectedId={selectedId}
              showAddress={mailboxAddress === null && address === ''}
              filtered={filtered}
              onSelect={(item) => setSelectedId(item.id)}
              onPageChange={(nextPage, nextSize) => {
                setPage(nextPage);
                setPageSize(nextSize);
              }}
            />
          </Card>
        </Col>
        <Col xs={24} lg={14} xl={15}>
          <Card size="small" style={{ minHeight: 400 }}>
            {selectedId === null ? (
              <Empty
                image={<MailOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />}
                description={
                  list.length > 0 ? '从左侧选择一封邮件阅读' : '收到的邮件会实时出现在左侧，无需刷新页面'
                }
              />
            ) : (
              <Suspense fallback={<Skeleton active />}>
                <MessageReader
                  key={selectedId}
                  messageId={selectedId}
                  extraActions={readerActions}
                  onClosed={() => setSelectedId(null)}
                />
              </Suspense>
            )}
          </Card>
        </Col>
      </Row>
      {deletingRange ? (
        <Suspense fallback={null}>
          <DeleteRangeDialog
            mailboxAddress={mailboxAddress}
            address={address}
            onClose={() => setDeletingRange(false)}
            onDeleted={() => setSelectedId(null)}
          />
        </Suspense>
      ) : null}
    </Space>
  );
}
