import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotaResult } from '#shared/features/notas/notas.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { notasAdminKeys } from './notas-admin-keys';

export const publishNota = (id: number) => apiFetch<NotaResult>(`/api/admin/notas/${id}/publish`, { method: 'POST' });

/** Puts a nota on the public site. */
export function usePublishNota(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: publishNota,
    onSuccess: (result) => {
      queryClient.setQueryData(notasAdminKeys.one(result.nota.id), result.nota);
      void queryClient.invalidateQueries({ queryKey: notasAdminKeys.all });
    },
  });
}
