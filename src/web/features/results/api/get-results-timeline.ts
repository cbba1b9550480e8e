import { useQuery } from '@tanstack/react-query';
import type { Timeline } from '#shared/features/results/results';
import { apiFetch } from '#web/platform/lib/api-client';
import { resultsKeys, type StreamFed, streamFedQueryOptions } from './get-results';

export const getResultsTimeline = () => apiFetch<Timeline>('/api/results/timeline', { cache: 'no-store' });

/**
 * The day's votes per quarter of an hour. Like the breakdown, it comes on the live stream (its changed
 * quarters, useResultsStream) and is asked for every 5 s (the spec's) only while the stream is down.
 */
export const getResultsTimelineQueryOptions = (options: StreamFed) =>
  streamFedQueryOptions(resultsKeys.timeline, getResultsTimeline, options);

export const useResultsTimeline = (options: { live: boolean; pollMs?: number | undefined }) =>
  useQuery(
    getResultsTimelineQueryOptions({ live: options.live, ...(options.pollMs ? { pollMs: options.pollMs } : {}) }),
  );
