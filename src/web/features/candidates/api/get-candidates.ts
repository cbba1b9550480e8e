import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminCandidates } from '#shared/features/candidates/candidates';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const getAdminCandidates = () => apiFetch<AdminCandidates>('/api/admin/candidates');

export const getAdminCandidatesQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.candidates(), queryFn: getAdminCandidates });

export const useAdminCandidates = () => useQuery(getAdminCandidatesQueryOptions());
