import { DomainTable } from '../../../features/domains/components/domain-table';

export function Component() {
  return <DomainTable />;
}
