import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCandidate, UpdateCandidateBody } from '../../../../shared/admin';
import { apiFetch } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const updateCandidate = (id: number, body: UpdateCandidateBody) =>
  apiFetch<AdminCandidate>(`/api/admin/candidates/${id}`, { method: 'PATCH', body: JSON.stringify(body) });

export function useUpdateCandidate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateCandidateBody & { id: number }) => updateCandidate(id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.candidates() });
      void queryClient.invalidateQueries({ queryKey: ['candidates'] });
    },
  });
}
