import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { notasAdminKeys } from './notas-admin-keys';

export const deleteNota = (id: number) => apiFetch<{ message: string }>(`/api/admin/notas/${id}`, { method: 'DELETE' });

export function useDeleteNota(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: deleteNota,
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: notasAdminKeys.one(id) });
      void queryClient.invalidateQueries({ queryKey: notasAdminKeys.all });
    },
  });
}
