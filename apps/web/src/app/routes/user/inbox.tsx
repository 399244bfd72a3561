import { EditOutlined, RollbackOutlined, SendOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { MailDetail } from '@youju/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { ComposeDrawer } from '../../../features/compose/components/compose-drawer';
import type { ComposeMode } from '../../../features/compose/components/compose-prefill';
import { InboxView } from '../../../features/mail/components/inbox-view';
import { useSettings } from '../../../features/settings/api/get-settings';
import { usePermissionStore } from '../../../state/permission';

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

  return (
    <>
      <InboxView
        mailboxAddress={mailboxAddress}
        headerActions={
          <Button
            type="primary"
            size="small"
            icon={<EditOutlined />}
            onClick={() => setComposing({ mode: 'new' })}
          >
            写邮件
          </Button>
        }
        readerActions={(detail) => (
          <>
            <Button
              icon={<RollbackOutlined />}
              onClick={() => setComposing({ mode: 'reply', original: detail })}
            >
              回复
            </Button>
            <Button
              icon={<SendOutlined />}
              onClick={() => setComposing({ mode: 'replyAll', original: detail })}
            >
              回复全部
            </Button>
            <Button
              icon={<ShareAltOutlined />}
              onClick={() => setComposing({ mode: 'forward', original: detail })}
            >
              转发
            </Button>
          </>
        )}
      />
      <ComposeDrawer
        signature={signature}
        open={composing !== null}
        mode={composing?.mode ?? 'new'}
        original={composing?.original}
        onClose={() => setComposing(null)}
      />
    </>
  );
}
