import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotaCreateBody, NotaResult } from '#shared/features/notas/notas.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { notasAdminKeys } from './notas-admin-keys';

export const createNota = (body: NotaCreateBody) =>
  apiFetch<NotaResult>('/api/admin/notas', { method: 'POST', body: JSON.stringify(body) });

export function useCreateNota(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: createNota,
    onSuccess: (result) => {
      queryClient.setQueryData(notasAdminKeys.one(result.nota.id), result.nota);
      void queryClient.invalidateQueries({ queryKey: notasAdminKeys.all });
    },
  });
}
