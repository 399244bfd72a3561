import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';
import { t } from '../lib/i18n';

export interface Paging {
  page: number;
  pageSize: number;
}

/**
 * The page a paged table shows, and the antd pagination that turns it: a page-size changer and
 * "共 N <unit>" beside the pages. A changed filter goes back to the first page (`toFirstPage`, or
 * `filterChange(setFilter)` for a filter's onChange).
 */
export function useTablePaging(initialPageSize = 20) {
  const [paging, setPaging] = useState<Paging>({ page: 1, pageSize: initialPageSize });
  const toFirstPage = () => setPaging((current) => ({ ...current, page: 1 }));
  /** A filter's setter that also goes back to the first page. */
  const filterChange =
    <Value>(setFilter: (value: Value) => void) =>
    (value: Value) => {
      setFilter(value);
      toFirstPage();
    };
  const pagination = (total: number, unit: string): TablePaginationConfig => ({
    current: paging.page,
    pageSize: paging.pageSize,
    total,
    showSizeChanger: true,
    // English says the count alone ("Total: 12"): the unit is a Chinese measure word.
    showTotal: (count) => t('共 {count} {unit}', { count, unit }),
    onChange: (page, pageSize) => setPaging({ page, pageSize }),
  });
  return { paging, toFirstPage, filterChange, pagination };
}
