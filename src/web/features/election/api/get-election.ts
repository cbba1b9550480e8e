import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ElectionStatus } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';

export const electionKey = ['election'] as const;

export const getElection = () => apiFetch<ElectionStatus>('/api/election');

/** The day's phase, read again every minute: a band that says SIMULACRO must not stay after it. */
export const getElectionQueryOptions = () =>
  queryOptions({ queryKey: electionKey, queryFn: getElection, staleTime: 30_000, refetchInterval: 60_000 });

export const useElection = (enabled = true) => useQuery({ ...getElectionQueryOptions(), enabled });
