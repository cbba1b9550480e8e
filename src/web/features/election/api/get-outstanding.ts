import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Outstanding } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';

export const outstandingKey = ['election', 'outstanding'] as const;

/** How often 'Por llegar' asks again while on screen (the live stream asks at once on each arrival). */
export const OUTSTANDING_REFRESH_MS = 10_000;

export const getOutstanding = () => apiFetch<Outstanding>('/api/election/outstanding');

/** 'Por llegar': asked only once the day has closed, and again every few seconds while visible. */
export const getOutstandingQueryOptions = (closedAt: string | null) =>
  queryOptions({
    queryKey: [...outstandingKey, closedAt],
    queryFn: getOutstanding,
    enabled: closedAt !== null,
    refetchInterval: OUTSTANDING_REFRESH_MS,
    refetchIntervalInBackground: false,
  });

export const useOutstanding = (closedAt: string | null) => useQuery(getOutstandingQueryOptions(closedAt));
