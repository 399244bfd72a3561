import { InboxView } from '../../../features/inbox/components/inbox-view';

export function Component() {
  return <InboxView />;
}
