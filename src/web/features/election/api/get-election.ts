import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ElectionStatus } from '#shared/features/election/election';
import { ELECTION_PHASE_LABELS } from '#shared/features/election/election-day';
import { apiFetch } from '#web/platform/lib/api-client';
import { readLocal, writeLocal } from '#web/platform/lib/local-storage';

export const electionKey = ['election'] as const;

/**
 * The day's status with how far this phone's clock is from the server's (server minus phone, in ms,
 * measured when the answer arrived): the countdown to the close runs on the server's clock. `heardAt`:
 * when it arrived (the phone's ms).
 */
export type ElectionDay = ElectionStatus & { clockOffsetMs: number; heardAt: number };

/** An answer of the server about the day, with the phone's distance from its clock. */
export function withServerClock(status: ElectionStatus): ElectionDay {
  const server = status.now ? Date.parse(status.now) : Number.NaN;
  const heardAt = Date.now();
  return { ...status, clockOffsetMs: Number.isFinite(server) ? server - heardAt : 0, heardAt };
}

/**
 * The last answer about the day, kept on the phone: a page opened without a connection still shows the
 * phase and counts down to the close (and shows the day closed once its time has passed). Nothing of a
 * person: the day is the same for everyone.
 */
const KEPT_DAY_KEY = 'comando-jornada';

/**
 * The kept answer, if it has the shape this code writes (a value of an older version, or edited by hand,
 * is left out). Checked by hand: the schemas' library stays out of the first page's code.
 */
function keptDay(): ElectionDay | undefined {
  try {
    const kept = JSON.parse(readLocal(KEPT_DAY_KEY) ?? 'null') as Partial<ElectionDay> | null;
    const shaped =
      kept !== null &&
      typeof kept === 'object' &&
      typeof kept.phase === 'string' &&
      Object.hasOwn(ELECTION_PHASE_LABELS, kept.phase) &&
      (kept.closesAt === null || typeof kept.closesAt === 'string') &&
      (kept.closedAt === null || typeof kept.closedAt === 'string') &&
      typeof kept.now === 'string' &&
      typeof kept.clockOffsetMs === 'number' &&
      typeof kept.heardAt === 'number';
    return shaped ? (kept as ElectionDay) : undefined;
  } catch {
    return undefined;
  }
}

export async function getElection(): Promise<ElectionDay> {
  const day = withServerClock(await apiFetch<ElectionStatus>('/api/election'));
  writeLocal(KEPT_DAY_KEY, JSON.stringify(day));
  return day;
}

/**
 * The day's phase, read again every minute: a band that says SIMULACRO must not stay after it. Until the
 * server answers, the kept answer stands in; it counts as old, so the server is asked at once.
 */
export const getElectionQueryOptions = () =>
  queryOptions({
    queryKey: electionKey,
    queryFn: getElection,
    staleTime: 30_000,
    refetchInterval: 60_000,
    initialData: keptDay,
    initialDataUpdatedAt: 0,
  });

export const useElection = (enabled = true) => useQuery({ ...getElectionQueryOptions(), enabled });
