import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotaResult, NotaUpdateBody } from '#shared/features/notas/notas.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { notasAdminKeys } from './notas-admin-keys';

export const updateNota = (id: number, body: NotaUpdateBody) =>
  apiFetch<NotaResult>(`/api/admin/notas/${id}`, { method: 'PUT', body: JSON.stringify(body) });

export function useUpdateNota(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: ({ id, ...body }: NotaUpdateBody & { id: number }) => updateNota(id, body),
    onSuccess: (result) => {
      queryClient.setQueryData(notasAdminKeys.one(result.nota.id), result.nota);
      void queryClient.invalidateQueries({ queryKey: notasAdminKeys.all });
    },
  });
}
