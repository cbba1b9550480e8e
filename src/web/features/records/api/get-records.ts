import { type InfiniteData, infiniteQueryOptions, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import type { ProcedureRecord, RecordsPage } from '#shared/features/records/records';
import { apiFetch } from '#web/platform/lib/api-client';

export interface RecordsFilters {
  q: string;
  /** Also list records already validated (vote and three photos). */
  validated: boolean;
}

export const recordsKeys = {
  all: (slug: string) => ['records', slug] as const,
  lists: (slug: string) => ['records', slug, 'list'] as const,
  list: (slug: string, filters: RecordsFilters) => ['records', slug, 'list', filters] as const,
  summary: (slug: string) => ['records', slug, 'summary'] as const,
};

export const getRecords = (slug: string, filters: RecordsFilters, after?: number) => {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.validated) params.set('validated', '1');
  if (after !== undefined) params.set('after', String(after));
  const query = params.toString();
  return apiFetch<RecordsPage>(`/api/validation/${encodeURIComponent(slug)}/records${query ? `?${query}` : ''}`);
};

export const getRecordsQueryOptions = (slug: string, filters: RecordsFilters) =>
  infiniteQueryOptions({
    queryKey: recordsKeys.list(slug, filters),
    queryFn: ({ pageParam }) => getRecords(slug, filters, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useRecords = (slug: string, filters: RecordsFilters) =>
  useInfiniteQuery({ ...getRecordsQueryOptions(slug, filters), placeholderData: (previous) => previous });

/**
 * Puts the server's answer for one record into every loaded list of the department, in place: the
 * card updates at once and the rest of a long list is neither refetched nor re-rendered.
 */
export function replaceRecordInLists(queryClient: QueryClient, slug: string, record: ProcedureRecord): void {
  queryClient.setQueriesData<InfiniteData<RecordsPage>>({ queryKey: recordsKeys.lists(slug) }, (data) => {
    if (!data) return data;
    let changed = false;
    const pages = data.pages.map((page) => {
      const index = page.items.findIndex((r) => r.id === record.id);
      if (index < 0) return page;
      changed = true;
      const items = page.items.slice();
      items[index] = record;
      return { ...page, items };
    });
    return changed ? { ...data, pages } : data;
  });
}
