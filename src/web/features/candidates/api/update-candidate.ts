import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCandidate, UpdateCandidateBody } from '#shared/features/candidates/candidates';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys } from '#web/platform/lib/query-keys';

export const updateCandidate = (id: number, body: UpdateCandidateBody) =>
  apiFetch<AdminCandidate>(`/api/admin/candidates/${id}`, { method: 'PATCH', body: JSON.stringify(body) });

export function useUpdateCandidate(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: ({ id, ...body }: UpdateCandidateBody & { id: number }) => updateCandidate(id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.candidates() });
      void queryClient.invalidateQueries({ queryKey: ['candidates'] });
    },
  });
}
