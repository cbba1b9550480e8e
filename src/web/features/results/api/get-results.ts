import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Results } from '#shared/features/results/results';
import { RESULTS_POLL_MS } from '#shared/platform/constants';
import { apiFetch } from '#web/platform/lib/api-client';

export const resultsKeys = {
  all: ['results'] as const,
  current: ['results', 'current'] as const,
  breakdown: ['results', 'breakdown'] as const,
  timeline: ['results', 'timeline'] as const,
};

export const getResults = () => apiFetch<Results>('/api/results', { cache: 'no-store' });

/**
 * The totals. While the live stream feeds the cache there is nothing to fetch; without it the page
 * asks every `pollMs` (the spec's 5 seconds), also in a background tab: it may be on a projector.
 */
export const getResultsQueryOptions = ({ live, pollMs = RESULTS_POLL_MS }: { live: boolean; pollMs?: number }) =>
  queryOptions({
    queryKey: resultsKeys.current,
    queryFn: getResults,
    staleTime: live ? Number.POSITIVE_INFINITY : 0,
    refetchInterval: live ? false : pollMs,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: !live,
  });

export const useResults = (options: { live: boolean; pollMs?: number }) => useQuery(getResultsQueryOptions(options));
