import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ElectionStatus } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';

export const electionKey = ['election'] as const;

/**
 * The day's status with how far this phone's clock is from the server's (server minus phone, in ms,
 * measured when the answer arrived): the countdown to the close runs on the server's clock.
 */
export type ElectionDay = ElectionStatus & { clockOffsetMs: number };

/** An answer of the server about the day, with the phone's distance from its clock. */
export function withServerClock(status: ElectionStatus): ElectionDay {
  const server = status.now ? Date.parse(status.now) : Number.NaN;
  return { ...status, clockOffsetMs: Number.isFinite(server) ? server - Date.now() : 0 };
}

export const getElection = () => apiFetch<ElectionStatus>('/api/election').then(withServerClock);

/** The day's phase, read again every minute: a band that says SIMULACRO must not stay after it. */
export const getElectionQueryOptions = () =>
  queryOptions({ queryKey: electionKey, queryFn: getElection, staleTime: 30_000, refetchInterval: 60_000 });

export const useElection = (enabled = true) => useQuery({ ...getElectionQueryOptions(), enabled });
