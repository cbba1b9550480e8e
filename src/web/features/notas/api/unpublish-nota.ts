import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotaResult } from '#shared/features/notas/notas.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { notasAdminKeys } from './notas-admin-keys';

export const unpublishNota = (id: number) =>
  apiFetch<NotaResult>(`/api/admin/notas/${id}/unpublish`, { method: 'POST' });

/** Takes a nota back to draft: it leaves the public site. */
export function useUnpublishNota(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: unpublishNota,
    onSuccess: (result) => {
      queryClient.setQueryData(notasAdminKeys.one(result.nota.id), result.nota);
      void queryClient.invalidateQueries({ queryKey: notasAdminKeys.all });
    },
  });
}
