import { type InfiniteData, infiniteQueryOptions, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import type { RecordsPage } from '#shared/features/records/records';
import type { ProcedureRecord } from '#shared/platform/records';
import { apiFetch, isNetworkError } from '#web/platform/lib/api-client';
import { recordsQueryRoots } from '#web/platform/lib/query-keys';
import { pageCopyId, patchSavedRecord, readCopy, saveCopy, searchCopies } from '../device/device-copies';

export interface RecordsFilters {
  q: string;
  /** Also list records already validated (vote and three photos). */
  validated: boolean;
}

export const recordsKeys = {
  all: (slug: string) => [...recordsQueryRoots.validation, slug] as const,
  lists: (slug: string) => [...recordsQueryRoots.validation, slug, 'list'] as const,
  list: (slug: string, filters: RecordsFilters) => [...recordsQueryRoots.validation, slug, 'list', filters] as const,
  summary: (slug: string) => [...recordsQueryRoots.validation, slug, 'summary'] as const,
};

/** A page as shown: from the server, or from the phone's copy (then `savedAt` says when it was saved). */
export type ShownRecordsPage = RecordsPage & { savedAt?: number };

/**
 * One page of a department's list. Without a connection, the copy the phone kept of that page (or, for
 * a search, of every page it kept) stands in for it; pages without search are kept as they arrive.
 */
export const getRecords = async (slug: string, filters: RecordsFilters, after?: number): Promise<ShownRecordsPage> => {
  const q = filters.q.trim();
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (filters.validated) params.set('validated', '1');
  if (after !== undefined) params.set('after', String(after));
  const query = params.toString();
  try {
    const page = await apiFetch<RecordsPage>(
      `/api/validation/${encodeURIComponent(slug)}/records${query ? `?${query}` : ''}`,
    );
    if (!q) saveCopy(pageCopyId(slug, filters.validated, after), slug, page);
    return page;
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    if (q) {
      const found = after === undefined ? await searchCopies(slug, filters.validated, q) : undefined;
      if (found) return { ...found.page, savedAt: found.savedAt };
    } else {
      const copy = await readCopy<RecordsPage>(pageCopyId(slug, filters.validated, after));
      if (copy) return { ...copy.data, savedAt: copy.savedAt };
    }
    throw error;
  }
};

export const getRecordsQueryOptions = (slug: string, filters: RecordsFilters) =>
  infiniteQueryOptions({
    queryKey: recordsKeys.list(slug, filters),
    queryFn: ({ pageParam }) => getRecords(slug, filters, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Asked even when the browser says offline: the phone's copy answers then.
    networkMode: 'always',
  });

export const useRecords = (slug: string, filters: RecordsFilters) =>
  useInfiniteQuery({ ...getRecordsQueryOptions(slug, filters), placeholderData: (previous) => previous });

/**
 * Puts the server's answer for one record into every loaded list of the department, in place: the
 * card updates at once and the rest of a long list is neither refetched nor re-rendered.
 */
export function replaceRecordInLists(queryClient: QueryClient, slug: string, record: ProcedureRecord): void {
  void patchSavedRecord(slug, record).catch((error: unknown) => console.error('copia no actualizada', error));
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
