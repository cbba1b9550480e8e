import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '#web/platform/lib/api-client';
import { agendaAdminKeys } from './agenda-admin-keys';

export const deleteAgendaEvent = (id: number) =>
  apiFetch<{ message: string }>(`/api/admin/agenda/${id}`, { method: 'DELETE' });

export function useDeleteAgendaEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgendaEvent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agendaAdminKeys.all }),
  });
}
