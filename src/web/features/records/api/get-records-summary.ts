import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordsSummary } from '#shared/features/records/records';
import { apiFetch, isNetworkError } from '#web/platform/lib/api-client';
import { readCopy, saveCopy, summaryCopyId } from '../device/device-copies';
import { recordsKeys } from './get-records';

/** The department's counts; without a connection, the last ones the phone kept. */
export const getRecordsSummary = async (slug: string): Promise<RecordsSummary> => {
  try {
    const summary = await apiFetch<RecordsSummary>(`/api/validation/${encodeURIComponent(slug)}/summary`);
    saveCopy(summaryCopyId(slug), slug, summary);
    return summary;
  } catch (error) {
    const copy = isNetworkError(error) ? await readCopy<RecordsSummary>(summaryCopyId(slug)) : undefined;
    if (copy) return copy.data;
    throw error;
  }
};

export const getRecordsSummaryQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: recordsKeys.summary(slug),
    queryFn: () => getRecordsSummary(slug),
    networkMode: 'always',
  });

export const useRecordsSummary = (slug: string) => useQuery(getRecordsSummaryQueryOptions(slug));
