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

/** Whether the live stream feeds the page, and how often to ask without it. */
export interface StreamFed {
  live: boolean;
  pollMs?: number;
}

/**
 * Query options for what the live stream keeps in the cache (the totals, and since decision 087 the
 * breakdown and the timeline): while it feeds the page there is nothing to fetch; without it the page
 * asks every `pollMs` (the spec's 5 seconds), also in a background tab: it may be on a projector.
 */
export const streamFedQueryOptions = <T>(
  queryKey: readonly string[],
  queryFn: () => Promise<T>,
  { live, pollMs = RESULTS_POLL_MS }: StreamFed,
) =>
  queryOptions({
    queryKey,
    queryFn,
    staleTime: live ? Number.POSITIVE_INFINITY : 0,
    refetchInterval: live ? false : pollMs,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: !live,
  });

/** The totals. */
export const getResultsQueryOptions = (options: StreamFed) =>
  streamFedQueryOptions(resultsKeys.current, getResults, options);

export const useResults = (options: StreamFed) => useQuery(getResultsQueryOptions(options));
