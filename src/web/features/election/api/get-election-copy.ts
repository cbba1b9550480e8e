import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CopyState } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const getElectionCopy = () => apiFetch<CopyState>('/api/admin/election/copy');

/** Asked again every 15 s while Jornada is open: the copy's lag moves by itself. */
export const getElectionCopyQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.electionCopy(), queryFn: getElectionCopy, refetchInterval: 15_000 });

export const useElectionCopy = () => useQuery(getElectionCopyQueryOptions());
