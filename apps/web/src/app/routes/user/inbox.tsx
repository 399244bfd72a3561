import { EditOutlined, RollbackOutlined, SendOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { MailDetail } from '@youju/contract';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ComposeMode } from '../../../features/compose/components/compose-prefill';
import { InboxView } from '../../../features/mail/components/inbox-view';
import { useSettings } from '../../../features/settings/api/get-settings';
import { usePermissionStore } from '../../../state/permission';

// The drawer's code (form, uploads, editor) is fetched when it is first opened; from then on it stays
// mounted, so that it closes with its animation.
const ComposeDrawer = lazy(() =>
  import('../../../features/compose/components/compose-drawer').then((module) => ({
    default: module.ComposeDrawer,
  })),
);

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
  // /user/inbox?id=<message id>: the link a Telegram notification carries opens that message.
  const [searchParams] = useSearchParams();
  const linkedId = Number(searchParams.get('id'));
  const compose = (next: Composing) => {
    setComposeOpened(true);
    setComposing(next);
  };

  return (
    <>
      <InboxView
        mailboxAddress={mailboxAddress}
        initialMessageId={Number.isSafeInteger(linkedId) && linkedId > 0 ? linkedId : null}
        headerActions={
          <Button
            type="primary"
            size="small"
            icon={<EditOutlined />}
            onClick={() => compose({ mode: 'new' })}
          >
            写邮件
          </Button>
        }
        readerActions={(detail) => (
          <>
            <Button icon={<RollbackOutlined />} onClick={() => compose({ mode: 'reply', original: detail })}>
              回复
            </Button>
            <Button icon={<SendOutlined />} onClick={() => compose({ mode: 'replyAll', original: detail })}>
              回复全部
            </Button>
            <Button
              icon={<ShareAltOutlined />}
              onClick={() => compose({ mode: 'forward', original: detail })}
            >
              转发
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
