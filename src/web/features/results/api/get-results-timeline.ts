import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Timeline } from '#shared/features/results/results';
import { RESULTS_POLL_MS } from '#shared/platform/constants';
import { apiFetch } from '#web/platform/lib/api-client';
import { resultsKeys } from './get-results';

export const getResultsTimeline = () => apiFetch<Timeline>('/api/results/timeline', { cache: 'no-store' });

/**
 * The day's votes per quarter of an hour. Like the breakdown, it comes on the live stream (its changed
 * quarters, useResultsStream) and is asked for every 5 s (the spec's) only while the stream is down.
 */
export const getResultsTimelineQueryOptions = ({
  live,
  pollMs = RESULTS_POLL_MS,
}: {
  live: boolean;
  pollMs?: number;
}) =>
  queryOptions({
    queryKey: resultsKeys.timeline,
    queryFn: getResultsTimeline,
    staleTime: live ? Number.POSITIVE_INFINITY : 0,
    refetchInterval: live ? false : pollMs,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: !live,
  });

export const useResultsTimeline = (options: { live: boolean; pollMs?: number | undefined }) =>
  useQuery(
    getResultsTimelineQueryOptions({ live: options.live, ...(options.pollMs ? { pollMs: options.pollMs } : {}) }),
  );
