import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { sentKeys } from '../../../features/sent-mail/api/get-sent';
import { SentView } from '../../../features/sent-mail/components/sent-view';
import { useSettings } from '../../../features/settings/api/get-settings';

// The drawer's code (form, uploads, editor) is fetched when it is first opened; from then on it stays
// mounted, so that it closes with its animation.
const ComposeDrawer = lazy(() =>
  import('../../../features/compose/components/compose-drawer').then((module) => ({
    default: module.ComposeDrawer,
  })),
);

/** /user/sent: the sent list, and the compose drawer it opens (features stay apart; the route joins them). */
export function Component() {
  // The signature the caller set in /user/setting goes into every new body.
  const signature = useSettings().data?.personal.signature;
  const [composing, setComposing] = useState(false);
  const [composeOpened, setComposeOpened] = useState(false);
  const queryClient = useQueryClient();
  return (
    <>
      <SentView
        onCompose={() => {
          setComposeOpened(true);
          setComposing(true);
        }}
      />
      {composeOpened ? (
        <Suspense fallback={null}>
          <ComposeDrawer
            signature={signature}
            open={composing}
            mode="new"
            onClose={() => setComposing(false)}
            onSent={() => void queryClient.invalidateQueries({ queryKey: sentKeys.all })}
          />
        </Suspense>
      ) : null}
    </>
  );
}
