import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CandidatesList } from '#shared/features/records/records';
import { apiFetch } from '#web/platform/lib/api-client';
import { recordsAdminKeys } from './records-admin-keys';

export const getCandidates = () => apiFetch<CandidatesList>('/api/candidates');

export const getCandidatesQueryOptions = () =>
  queryOptions({ queryKey: recordsAdminKeys.candidates(), queryFn: getCandidates, staleTime: 10 * 60_000 });

/** The ballot's candidates, for correcting a vote. */
export const useCandidates = () => useQuery(getCandidatesQueryOptions());
