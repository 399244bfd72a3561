import { useDomains } from '../../../api/get-domains';
import { InterfaceView } from '../../../features/api-key/components/interface-view';

/** /user/interface: the API key and curl examples on the caller's first domain. */
export function Component() {
  const domains = useDomains();
  return <InterfaceView {...(domains.data?.[0] ? { domain: domains.data[0].name } : {})} />;
}
