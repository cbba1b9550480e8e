import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { RecordsAdminPage } from '#shared/features/records-admin/records-admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { type RecordsAdminFilters, recordsAdminKeys } from './records-admin-keys';

export const getRecordsAdmin = (filters: RecordsAdminFilters, after?: number) => {
  // Without a department: every municipality and parish.
  const params = new URLSearchParams({ status: filters.status });
  if (filters.department) params.set('department', filters.department);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (after !== undefined) params.set('after', String(after));
  return apiFetch<RecordsAdminPage>(`/api/admin/records?${params}`);
};

export const getRecordsAdminQueryOptions = (filters: RecordsAdminFilters) =>
  infiniteQueryOptions({
    queryKey: recordsAdminKeys.list(filters),
    queryFn: ({ pageParam }) => getRecordsAdmin(filters, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** A municipality's records (every one's with department ''), 50 at a time, with search and status. */
export const useRecordsAdmin = (filters: RecordsAdminFilters) =>
  useInfiniteQuery({ ...getRecordsAdminQueryOptions(filters), placeholderData: keepPreviousData });
