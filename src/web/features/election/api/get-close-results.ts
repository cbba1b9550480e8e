import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloseResults } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';

export const getCloseResults = () => apiFetch<CloseResults>('/api/election/close-results');

/** The close's counts do not change; the late arrivals do: read again every minute. */
export const getCloseResultsQueryOptions = (closedAt: string | null) =>
  queryOptions({
    queryKey: ['election', 'close-results', closedAt],
    queryFn: getCloseResults,
    enabled: closedAt !== null,
    refetchInterval: 60_000,
  });

export const useCloseResults = (closedAt: string | null) => useQuery(getCloseResultsQueryOptions(closedAt));
