import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotaResult } from '#shared/features/notas/notas.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { notasAdminKeys } from './notas-admin-keys';

export const unpublishNota = (id: number) =>
  apiFetch<NotaResult>(`/api/admin/notas/${id}/unpublish`, { method: 'POST' });

/** Takes a nota back to draft: it leaves the public site. */
export function useUnpublishNota() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unpublishNota,
    onSuccess: (result) => {
      queryClient.setQueryData(notasAdminKeys.one(result.nota.id), result.nota);
      void queryClient.invalidateQueries({ queryKey: notasAdminKeys.all });
    },
  });
}
