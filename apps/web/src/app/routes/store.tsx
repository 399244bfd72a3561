import { Card } from 'antd';
import { SaleDomainList } from '../../features/sale-domains/components/sale-domain-list';

/** Store: the domains whose mailboxes are for sale. */
export function Component() {
  return (
    <Card title="商店">
      <SaleDomainList />
    </Card>
  );
}
