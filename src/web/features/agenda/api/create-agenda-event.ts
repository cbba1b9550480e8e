import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgendaEventBody, AgendaEventResult } from '#shared/features/agenda/agenda.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { agendaAdminKeys } from './agenda-admin-keys';

export const createAgendaEvent = (body: AgendaEventBody) =>
  apiFetch<AgendaEventResult>('/api/admin/agenda', { method: 'POST', body: JSON.stringify(body) });

export function useCreateAgendaEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgendaEvent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agendaAdminKeys.all }),
  });
}
