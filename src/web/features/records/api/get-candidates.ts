import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CandidatesList } from '#shared/features/records/records';
import { apiFetch, isNetworkError } from '#web/platform/lib/api-client';
import { CANDIDATES_COPY_ID, readCopy, saveCopy } from '../device/device-copies';

/** The ballot's candidates; without a connection, the list the phone kept (the vote dialog needs it). */
export const getCandidates = async (): Promise<CandidatesList> => {
  try {
    const list = await apiFetch<CandidatesList>('/api/candidates');
    saveCopy(CANDIDATES_COPY_ID, null, list);
    return list;
  } catch (error) {
    const copy = isNetworkError(error) ? await readCopy<CandidatesList>(CANDIDATES_COPY_ID) : undefined;
    if (copy) return copy.data;
    throw error;
  }
};

export const getCandidatesQueryOptions = () =>
  queryOptions({ queryKey: ['candidates'], queryFn: getCandidates, staleTime: 10 * 60_000, networkMode: 'always' });

export const useCandidates = () => useQuery(getCandidatesQueryOptions());
