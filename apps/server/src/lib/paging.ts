import type { PageOf, PageQuery } from '@youju/contract';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Runs a paged query with the API's paging rules: page from 1, size 20 by default, at most 100. */
export async function pageOf<T>(
  query: PageQuery,
  load: (limit: number, offset: number) => Promise<{ rows: T[]; total: number }>,
): Promise<PageOf<T>> {
  const page = Math.max(1, query.page ?? 1);
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, query.pageSize ?? DEFAULT_PAGE_SIZE));
  const { rows, total } = await load(pageSize, (page - 1) * pageSize);
  return { list: rows, total, page, pageSize };
}
