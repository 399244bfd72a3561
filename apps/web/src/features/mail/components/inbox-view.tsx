import { ArrowLeftOutlined, ClearOutlined, MailOutlined, ReloadOutlined } from '@ant-design/icons';
import type { MailDetail, MailItem } from '@youju/contract';
import { Button, Card, Col, Empty, Grid, Input, Row, Segmented, Skeleton, Space, Tooltip } from 'antd';
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
  /**
   * The open message, or null. The screen keeps it (in the address: /user/inbox?id=), so that the
   * browser's back closes the reader on a phone and a Telegram notification's link opens a message.
   */
  openMessageId: number | null;
  /** open a message from the list */
  onOpen: (id: number) => void;
  /** close the reader (back control, message deleted or moved, another address picked) */
  onClose: () => void;
}

// Fetched when first shown, so that the list comes up sooner: the reader (with its HTML sanitiser)
// once a message is opened, the dialog once it is asked for.
const MessageReader = lazy(() =>
  import('./message-reader').then((module) => ({ default: module.MessageReader })),
);
const DeleteRangeDialog = lazy(() =>
  import('./delete-range-dialog').then((module) => ({ default: module.DeleteRangeDialog })),
);

/**
 * The inbox: whose mail, the list with search and filters, the open message; live as mail arrives.
 * From antd's lg breakpoint the list and the reader stand side by side, and the reader sticks to the
 * window with a scroll of its own (global.css `.inbox-reader`): it stays in view however far the list
 * is scrolled. Below lg (phones) the list takes the whole width and an open message covers the
 * screen, with a back control; the list stays mounted beneath, where it was.
 */
export function InboxView({
  mailboxAddress,
  headerActions,
  readerActions,
  openMessageId: selectedId,
  onOpen,
  onClose,
}: InboxViewProps) {
  const [address, setAddress] = useState('');
  const [filter, setFilter] = useState<ListFilter>('all');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  // Before antd has measured the window, `lg` is undefined: lay out for a desktop (the common case).
  const narrow = Grid.useBreakpoint().lg === false;
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
    if (selectedId !== null) onClose();
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
              onSelect={(item) => {
                if (item.id !== selectedId) onOpen(item.id);
              }}
              onPageChange={(nextPage, nextSize) => {
                setPage(nextPage);
                setPageSize(nextSize);
              }}
            />
          </Card>
        </Col>
        {narrow ? null : (
          <Col lg={14} xl={15}>
            <Card size="small" className="inbox-reader" data-testid="reader-pane">
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
                    onClosed={onClose}
                  />
                </Suspense>
              )}
            </Card>
          </Col>
        )}
      </Row>
      {narrow && selectedId !== null ? (
        <section className="inbox-reader-screen" aria-label="阅读邮件" data-testid="reader-screen">
          <div className="inbox-reader-bar">
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={onClose} data-testid="reader-back">
              返回
            </Button>
          </div>
          <div className="inbox-reader-body">
            <Suspense fallback={<Skeleton active />}>
              <MessageReader
                key={selectedId}
                messageId={selectedId}
                extraActions={readerActions}
                onClosed={onClose}
              />
            </Suspense>
          </div>
        </section>
      ) : null}
      {deletingRange ? (
        <Suspense fallback={null}>
          <DeleteRangeDialog
            mailboxAddress={mailboxAddress}
            address={address}
            onClose={() => setDeletingRange(false)}
            onDeleted={() => {
              if (selectedId !== null) onClose();
            }}
          />
        </Suspense>
      ) : null}
    </Space>
  );
}
