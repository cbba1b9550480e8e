import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCandidates } from '#shared/features/candidates/candidates';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const deleteCandidate = (id: number) =>
  apiFetch<AdminCandidates>(`/api/admin/candidates/${id}`, { method: 'DELETE' });

export function useDeleteCandidate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCandidate,
    onSuccess: (list) => {
      queryClient.setQueryData(adminKeys.candidates(), list);
      void queryClient.invalidateQueries({ queryKey: ['candidates'] });
    },
  });
}
