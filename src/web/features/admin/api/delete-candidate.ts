import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCandidates } from '../../../../shared/admin';
import { apiFetch } from '../../../lib/api-client';
import { adminKeys } from './keys';

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
