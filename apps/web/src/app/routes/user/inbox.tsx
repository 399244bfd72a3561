import { EditOutlined, RollbackOutlined, SendOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { MailDetail } from '@youju/contract';
import { Button, Grid } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { userScreens } from '../../../config/routes';
import type { ComposeMode } from '../../../features/compose/components/compose-prefill';
import { GuideCard } from '../../../features/dashboard/components/guide-card';
import { InboxView } from '../../../features/mail/components/inbox-view';
import { useSettings } from '../../../features/settings/api/get-settings';
import { t } from '../../../lib/i18n';
import { usePermissionStore } from '../../../state/permission';

// The drawer's code (form, uploads, editor) is fetched when it is first opened; from then on it stays
// mounted, so that it closes with its animation.
const ComposeDrawer = lazy(() =>
  import('../../../features/compose/components/compose-drawer').then((module) => ({
    default: module.ComposeDrawer,
  })),
);

/** History state of an entry that opened the reader over the list: going back closes it. */
interface ReaderEntryState {
  readerOverList?: boolean;
}

/**
 * The open message lives in the address, /user/inbox?id=<message id> (the link a Telegram
 * notification carries has the same form). On a phone opening a message pushes a history entry, so
 * that the browser's back, like the reader's own back control, returns to the list; on a desktop,
 * where the list stays beside the reader, the entry is replaced instead, so that back leaves the inbox
 * rather than stepping through every message read.
 */
function useOpenMessage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const narrow = Grid.useBreakpoint().lg === false;
  const linkedId = Number(searchParams.get('id'));
  const openMessageId = Number.isSafeInteger(linkedId) && linkedId > 0 ? linkedId : null;

  const withId = (id: number | null) => {
    const next = new URLSearchParams(searchParams);
    if (id === null) next.delete('id');
    else next.set('id', String(id));
    return next;
  };
  const open = (id: number) => {
    const overList = narrow && openMessageId === null;
    setSearchParams(withId(id), {
      replace: !overList,
      state: overList ? ({ readerOverList: true } satisfies ReaderEntryState) : null,
      // The list keeps its scroll position beneath the reader.
      preventScrollReset: true,
    });
  };
  const close = () => {
    if ((location.state as ReaderEntryState | null)?.readerOverList) void navigate(-1);
    else setSearchParams(withId(null), { replace: true, preventScrollReset: true });
  };
  return { openMessageId, open, close };
}

interface Composing {
  mode: ComposeMode;
  original?: MailDetail;
}

/**
 * /user/inbox: a mailbox session reads its own address; system users pick among theirs. The route
 * joins the inbox and the compose drawer (write, reply, reply all, forward); the features stay apart.
 */
export function Component() {
  const permissionData = usePermissionStore((state) => state.permissionData);
  const mailboxAddress =
    permissionData.role === 'mailbox' && typeof permissionData.name === 'string' ? permissionData.name : null;
  // The signature the caller set in /user/setting goes into every new body.
  const signature = useSettings().data?.personal.signature;
  const [composing, setComposing] = useState<Composing | null>(null);
  const [composeOpened, setComposeOpened] = useState(false);
  const { openMessageId, open, close } = useOpenMessage();
  const compose = (next: Composing) => {
    setComposeOpened(true);
    setComposing(next);
  };

  return (
    <>
      {/* A system account's first page: the first-run checklist until it is done or dismissed. */}
      {permissionData.role === 'admin' || permissionData.role === 'user' ? (
        <GuideCard
          style={{ marginBottom: 16 }}
          links={{
            domains: userScreens.find((entry) => entry.screen === 'domain')?.path ?? '/user/domain',
            inbox: userScreens.find((entry) => entry.screen === 'inbox')?.path ?? '/user/inbox',
          }}
        />
      ) : null}
      <InboxView
        mailboxAddress={mailboxAddress}
        openMessageId={openMessageId}
        onOpen={open}
        onClose={close}
        onReply={(detail) => compose({ mode: 'reply', original: detail })}
        headerActions={
          <Button
            type="primary"
            size="small"
            icon={<EditOutlined />}
            onClick={() => compose({ mode: 'new' })}
          >
            {t('写邮件')}
          </Button>
        }
        readerActions={(detail) => (
          <>
            <Button icon={<RollbackOutlined />} onClick={() => compose({ mode: 'reply', original: detail })}>
              {t('回复')}
            </Button>
            <Button icon={<SendOutlined />} onClick={() => compose({ mode: 'replyAll', original: detail })}>
              {t('回复全部')}
            </Button>
            <Button
              icon={<ShareAltOutlined />}
              onClick={() => compose({ mode: 'forward', original: detail })}
            >
              {t('转发')}
            </Button>
          </>
        )}
      />
      {composeOpened ? (
        <Suspense fallback={null}>
          <ComposeDrawer
            signature={signature}
            open={composing !== null}
            mode={composing?.mode ?? 'new'}
            original={composing?.original}
            onClose={() => setComposing(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
