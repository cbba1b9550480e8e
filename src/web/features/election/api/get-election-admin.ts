import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ElectionAdmin } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const getElectionAdmin = () => apiFetch<ElectionAdmin>('/api/admin/election');

export const getElectionAdminQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.election(), queryFn: getElectionAdmin });

export const useElectionAdmin = () => useQuery(getElectionAdminQueryOptions());
