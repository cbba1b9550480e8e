import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgendaEventBody, AgendaEventResult } from '#shared/features/agenda/agenda.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { agendaAdminKeys } from './agenda-admin-keys';

export const updateAgendaEvent = (id: number, body: AgendaEventBody) =>
  apiFetch<AgendaEventResult>(`/api/admin/agenda/${id}`, { method: 'PUT', body: JSON.stringify(body) });

export function useUpdateAgendaEvent(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: ({ id, ...body }: AgendaEventBody & { id: number }) => updateAgendaEvent(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agendaAdminKeys.all }),
  });
}
