import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgendaEventBody, AgendaEventResult } from '#shared/features/agenda/agenda.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { agendaAdminKeys } from './agenda-admin-keys';

export const createAgendaEvent = (body: AgendaEventBody) =>
  apiFetch<AgendaEventResult>('/api/admin/agenda', { method: 'POST', body: JSON.stringify(body) });

export function useCreateAgendaEvent(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: createAgendaEvent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agendaAdminKeys.all }),
  });
}
