import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordsSummary } from '#shared/features/records/records';
import { apiFetch } from '#web/platform/lib/api-client';
import { recordsKeys } from './get-records';

export const getRecordsSummary = (slug: string) =>
  apiFetch<RecordsSummary>(`/api/validation/${encodeURIComponent(slug)}/summary`);

export const getRecordsSummaryQueryOptions = (slug: string) =>
  queryOptions({ queryKey: recordsKeys.summary(slug), queryFn: () => getRecordsSummary(slug) });

export const useRecordsSummary = (slug: string) => useQuery(getRecordsSummaryQueryOptions(slug));
