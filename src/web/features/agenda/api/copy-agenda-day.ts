import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgendaCopyBody, AgendaCopyResult } from '#shared/features/agenda/agenda.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { agendaAdminKeys } from './agenda-admin-keys';

export const copyAgendaDay = (body: AgendaCopyBody) =>
  apiFetch<AgendaCopyResult>('/api/admin/agenda/copy', { method: 'POST', body: JSON.stringify(body) });

export function useCopyAgendaDay(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: copyAgendaDay,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agendaAdminKeys.all }),
  });
}
