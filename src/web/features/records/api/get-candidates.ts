import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CandidatesList } from '#shared/features/records/records';
import { apiFetch } from '#web/platform/lib/api-client';

export const getCandidates = () => apiFetch<CandidatesList>('/api/candidates');

export const getCandidatesQueryOptions = () =>
  queryOptions({ queryKey: ['candidates'], queryFn: getCandidates, staleTime: 10 * 60_000 });

export const useCandidates = () => useQuery(getCandidatesQueryOptions());
