import {
  ArrowLeftOutlined,
  CheckCircleOutlined,
  ClearOutlined,
  MailOutlined,
  QuestionCircleOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { MailDetail, MailItem } from '@youju/contract';
import {
  Button,
  Card,
  Col,
  Empty,
  Grid,
  Input,
  type InputRef,
  Row,
  Segmented,
  Skeleton,
  Space,
  Tooltip,
} from 'antd';
import { lazy, type ReactNode, Suspense, useMemo, useRef, useState } from 'react';
import { showErrorMessage, showInfoMessage, showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { mailKeys, useInbox } from '../api/get-inbox';
import { useMailEvents } from '../api/mail-events';
import { useMarkAllRead } from '../api/mark-all-read';
import { useSetRead } from '../api/set-read';
import { useStarEmails } from '../api/star-emails';
import { AddressBar } from './address-bar';
import { type BulkAction, BulkToolbar } from './bulk-toolbar';
import { MessageList } from './message-list';
import { UndoDeleteBar } from './undo-delete-bar';
import { type InboxShortcut, useInboxShortcuts } from './use-inbox-shortcuts';
import { useUndoableDelete } from './use-undoable-delete';

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
  /** reply to the open message (the r shortcut) */
  onReply?: (detail: MailDetail) => void;
}

// Fetched when first shown, so that the list comes up sooner: the reader (with its HTML sanitiser)
// once a message is opened, the dialog once it is asked for.
const MessageReader = lazy(() =>
  import('./message-reader').then((module) => ({ default: module.MessageReader })),
);
const DeleteRangeDialog = lazy(() =>
  import('./delete-range-dialog').then((module) => ({ default: module.DeleteRangeDialog })),
);
const ShortcutHelpDialog = lazy(() =>
  import('./shortcut-help-dialog').then((module) => ({ default: module.ShortcutHelpDialog })),
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
  onReply,
}: InboxViewProps) {
  const queryClient = useQueryClient();
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
    showInfoMessage(
      t('收到新邮件：{subject}', { subject: item.subject || t('（无主题）') }),
      `mail-${item.id}`,
    );
  });

  const deletion = useUndoableDelete();
  const setRead = useSetRead();
  const star = useStarEmails();
  const markAll = useMarkAllRead((updated) =>
    showSuccessMessage(
      updated > 0 ? t('已将 {count} 封邮件标为已读', { count: updated }) : t('没有未读邮件'),
    ),
  );
  const [checked, setChecked] = useState<ReadonlySet<number>>(() => new Set());
  const [helpOpen, setHelpOpen] = useState(false);
  const searchBox = useRef<InputRef>(null);

  // Checked rows belong to the page they were checked on: another page, filter, search or address
  // starts with none.
  const showList = (change: () => void) => {
    change();
    setChecked(new Set());
  };
  const changeAddress = (next: string) => {
    showList(() => {
      setAddress(next);
      setPage(1);
    });
    if (selectedId !== null) onClose();
  };
  const rawList = inbox.data?.list ?? [];
  // Rows deleted on screen stay out of the list while their undo time runs.
  const list = useMemo(
    () => rawList.filter((item) => !deletion.hidden.has(item.id)),
    [rawList, deletion.hidden],
  );
  const total = Math.max(0, (inbox.data?.total ?? 0) - (rawList.length - list.length));
  const checkedIds = list.filter((item) => checked.has(item.id)).map((item) => item.id);
  const filtered = filter !== 'all' || search !== '';

  const toggleChecked = (id: number) =>
    setChecked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const deleteWithUndo = (ids: number[]) => {
    if (ids.length === 0) return;
    deletion.remove(ids);
    setChecked((current) => new Set([...current].filter((id) => !ids.includes(id))));
    if (selectedId !== null && ids.includes(selectedId)) onClose();
  };

  const runBulk = (action: BulkAction) => {
    const ids = checkedIds;
    if (ids.length === 0) return;
    const failed = (error: Error) => showErrorMessage(error.message);
    if (action === 'delete') deleteWithUndo(ids);
    else if (action === 'read' || action === 'unread')
      setRead.mutate({ ids, read: action === 'read' }, { onError: failed });
    else star.mutate({ ids, starred: action === 'star' }, { onError: failed });
  };

  const markAllRead = () =>
    markAll.mutate(mailboxAddress ?? (address || undefined), {
      onError: (error) => showErrorMessage(error.message),
    });

  // In the list's header on a desktop; on a phone, where that header is full, in the bulk bar.
  const markAllButton = (
    <Tooltip
      title={
        mailboxAddress || address
          ? t('将 {address} 的邮件全部标为已读', { address: mailboxAddress || address })
          : t('将全部地址的邮件标为已读')
      }
    >
      <Button
        type="text"
        aria-label={t('全部标为已读')}
        icon={<CheckCircleOutlined />}
        loading={markAll.isPending}
        onClick={markAllRead}
      />
    </Tooltip>
  );

  // Keyboard shortcuts (a desktop's keyboard; phones have none to speak of).
  useInboxShortcuts(!helpOpen, (shortcut: InboxShortcut) => {
    const index = selectedId === null ? -1 : list.findIndex((item) => item.id === selectedId);
    const openAt = (at: number) => {
      const item = list[at];
      if (!item) return;
      onOpen(item.id);
      document.querySelector(`[data-testid="message-item"][data-id="${item.id}"]`)?.scrollIntoView({
        block: 'nearest',
      });
    };
    switch (shortcut) {
      case 'next':
        openAt(index < 0 ? 0 : index + 1);
        break;
      case 'previous':
        openAt(index < 0 ? 0 : index - 1);
        break;
      case 'toggle':
        if (selectedId !== null) toggleChecked(selectedId);
        break;
      case 'reply': {
        const detail =
          selectedId === null ? undefined : queryClient.getQueryData<MailDetail>(mailKeys.detail(selectedId));
        if (detail && onReply) onReply(detail);
        break;
      }
      case 'delete':
        deleteWithUndo(checkedIds.length > 0 ? checkedIds : selectedId === null ? [] : [selectedId]);
        break;
      case 'search':
        searchBox.current?.focus();
        break;
      case 'help':
        setHelpOpen(true);
        break;
    }
  });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <AddressBar mailboxAddress={mailboxAddress} value={address} onChange={changeAddress} />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10} xl={9}>
          <Card
            size="small"
            className="inbox-list-card"
            title={
              <Space wrap>
                <Segmented<ListFilter>
                  value={filter}
                  onChange={(value) =>
                    showList(() => {
                      setFilter(value);
                      setPage(1);
                    })
                  }
                  options={[
                    { value: 'all', label: t('全部') },
                    { value: 'unread', label: t('未读') },
                    { value: 'starred', label: t('星标') },
                    { value: 'junk', label: t('垃圾邮件') },
                  ]}
                />
              </Space>
            }
            extra={
              <Space size={4}>
                {headerActions}
                {narrow ? null : markAllButton}
                {narrow ? null : (
                  <Tooltip title={t('键盘快捷键（?）')}>
                    <Button
                      type="text"
                      aria-label={t('键盘快捷键')}
                      icon={<QuestionCircleOutlined />}
                      onClick={() => setHelpOpen(true)}
                    />
                  </Tooltip>
                )}
                <Tooltip title={t('刷新')}>
                  <Button
                    type="text"
                    aria-label={t('刷新')}
                    icon={<ReloadOutlined />}
                    loading={inbox.isFetching}
                    onClick={() => void inbox.refetch()}
                  />
                </Tooltip>
                <Tooltip title={t('按时间删除')}>
                  <Button
                    type="text"
                    aria-label={t('按时间删除')}
                    icon={<ClearOutlined />}
                    onClick={() => setDeletingRange(true)}
                  />
                </Tooltip>
              </Space>
            }
          >
            <Input.Search
              ref={searchBox}
              allowClear
              placeholder={t('搜索主题、发件人或正文')}
              aria-label={t('搜索邮件')}
              enterButton={t('搜索')}
              onSearch={(value) =>
                showList(() => {
                  setSearch(value.trim());
                  setPage(1);
                })
              }
              style={{ marginBottom: 8 }}
            />
            {list.length > 0 ? (
              <BulkToolbar
                total={list.length}
                checked={checkedIds.length}
                narrow={narrow}
                busy={setRead.isPending || star.isPending}
                onCheckAll={(all) => setChecked(new Set(all ? list.map((item) => item.id) : []))}
                onAction={runBulk}
                idleAction={narrow ? markAllButton : null}
              />
            ) : null}
            <MessageList
              items={list}
              total={total}
              page={page}
              pageSize={pageSize}
              loading={inbox.isPending}
              selectedId={selectedId}
              showAddress={mailboxAddress === null && address === ''}
              filtered={filtered}
              onSelect={(item) => {
                if (item.id !== selectedId) onOpen(item.id);
              }}
              checkedIds={checked}
              onToggleChecked={toggleChecked}
              onPageChange={(nextPage, nextSize) =>
                showList(() => {
                  setPage(nextPage);
                  setPageSize(nextSize);
                })
              }
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
                    list.length > 0
                      ? t('从左侧选择一封邮件阅读')
                      : t('收到的邮件会实时出现在左侧，无需刷新页面')
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
        <section className="inbox-reader-screen" aria-label={t('阅读邮件')} data-testid="reader-screen">
          <div className="inbox-reader-bar">
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={onClose} data-testid="reader-back">
              {t('返回')}
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
      {deletion.notice ? (
        <UndoDeleteBar key={deletion.notice.at} count={deletion.notice.count} onUndo={deletion.undo} />
      ) : null}
      {helpOpen ? (
        <Suspense fallback={null}>
          <ShortcutHelpDialog onClose={() => setHelpOpen(false)} />
        </Suspense>
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
