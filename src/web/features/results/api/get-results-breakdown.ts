import { useQuery } from '@tanstack/react-query';
import type { Breakdown } from '#shared/features/results/results';
import { apiFetch } from '#web/platform/lib/api-client';
import { resultsKeys, type StreamFed, streamFedQueryOptions } from './get-results';

export const getResultsBreakdown = () => apiFetch<Breakdown>('/api/results/breakdown', { cache: 'no-store' });

/**
 * The per-municipality table (and the map), read from the same counters as the totals. While the live
 * stream feeds the page, it brings the table's changed rows itself (useResultsStream, decision 087);
 * without it, the table is asked for as often as the totals (the spec's 5 s).
 */
export const getResultsBreakdownQueryOptions = (options: StreamFed) =>
  streamFedQueryOptions(resultsKeys.breakdown, getResultsBreakdown, options);

export const useResultsBreakdown = (options: StreamFed) => useQuery(getResultsBreakdownQueryOptions(options));

/** The two downloads: plain links, so the browser saves the file (each download is audited). */
export const resultsDownloads = {
  breakdown: '/api/results/breakdown.csv',
  validated: '/api/results/validated.csv',
} as const;
