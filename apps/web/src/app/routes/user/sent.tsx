import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ComposeDrawer } from '../../../features/compose/components/compose-drawer';
import { sentKeys } from '../../../features/sent-mail/api/get-sent';
import { SentView } from '../../../features/sent-mail/components/sent-view';
import { useSettings } from '../../../features/settings/api/get-settings';

/** /user/sent: the sent list, and the compose drawer it opens (features stay apart; the route joins them). */
export function Component() {
  // The signature the caller set in /user/setting goes into every new body.
  const signature = useSettings().data?.personal.signature;
  const [composing, setComposing] = useState(false);
  const queryClient = useQueryClient();
  return (
    <>
      <SentView onCompose={() => setComposing(true)} />
      <ComposeDrawer
        signature={signature}
        open={composing}
        mode="new"
        onClose={() => setComposing(false)}
        onSent={() => void queryClient.invalidateQueries({ queryKey: sentKeys.all })}
      />
    </>
  );
}
