import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Breakdown } from '#shared/features/results/results';
import { apiFetch } from '#web/platform/lib/api-client';
import { resultsKeys } from './get-results';

export const getResultsBreakdown = () => apiFetch<Breakdown>('/api/results/breakdown', { cache: 'no-store' });

/** The per-municipality table counts records, so it is refreshed slowly (and on demand). */
export const getResultsBreakdownQueryOptions = () =>
  queryOptions({
    queryKey: resultsKeys.breakdown,
    queryFn: getResultsBreakdown,
    staleTime: 15_000,
    refetchInterval: 60_000,
  });

export const useResultsBreakdown = () => useQuery(getResultsBreakdownQueryOptions());

/** The two downloads: plain links, so the browser saves the file (each download is audited). */
export const resultsDownloads = {
  breakdown: '/api/results/breakdown.csv',
  validated: '/api/results/validated.csv',
} as const;
