import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCandidate, CreateCandidateBody } from '#shared/features/candidates/candidates';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys } from '#web/platform/lib/query-keys';

export const createCandidate = (body: CreateCandidateBody) =>
  apiFetch<AdminCandidate>('/api/admin/candidates', { method: 'POST', body: JSON.stringify(body) });

export function useCreateCandidate(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: createCandidate,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.candidates() });
      void queryClient.invalidateQueries({ queryKey: ['candidates'] });
    },
  });
}
