import { useDomains } from '../../../api/get-domains';
import { InterfaceView } from '../../../features/api-key/components/interface-view';
import { TelegramCard } from '../../../features/webhooks/components/telegram-card';
import { WebhooksCard } from '../../../features/webhooks/components/webhooks-card';

/** /user/interface: the API key and curl examples on the caller's first domain, webhooks and Telegram. */
export function Component() {
  const domains = useDomains();
  return (
    <>
      <InterfaceView {...(domains.data?.[0] ? { domain: domains.data[0].name } : {})} />
      <WebhooksCard />
      <TelegramCard />
    </>
  );
}
