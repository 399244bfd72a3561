import { FilterTable } from '../../../features/filters/components/filter-table';

export function Component() {
  return <FilterTable />;
}
