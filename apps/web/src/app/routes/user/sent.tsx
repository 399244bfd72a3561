import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ComposeDrawer } from '../../../features/compose/components/compose-drawer';
import { sentKeys } from '../../../features/sent-mail/api/get-sent';
import { SentView } from '../../../features/sent-mail/components/sent-view';

/** /user/sent: the sent list, and the compose drawer it opens (features stay apart; the route joins them). */
export function Component() {
  const [composing, setComposing] = useState(false);
  const queryClient = useQueryClient();
  return (
    <>
      <SentView onCompose={() => setComposing(true)} />
      <ComposeDrawer
        open={composing}
        mode="new"
        onClose={() => setComposing(false)}
        onSent={() => void queryClient.invalidateQueries({ queryKey: sentKeys.all })}
      />
    </>
  );
}
