import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminCandidates } from '../../../../shared/admin';
import { apiFetch } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const getAdminCandidates = () => apiFetch<AdminCandidates>('/api/admin/candidates');

export const getAdminCandidatesQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.candidates(), queryFn: getAdminCandidates });

export const useAdminCandidates = () => useQuery(getAdminCandidatesQueryOptions());
