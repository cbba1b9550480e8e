import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgendaCopyBody, AgendaCopyResult } from '#shared/features/agenda/agenda.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { agendaAdminKeys } from './agenda-admin-keys';

export const copyAgendaDay = (body: AgendaCopyBody) =>
  apiFetch<AgendaCopyResult>('/api/admin/agenda/copy', { method: 'POST', body: JSON.stringify(body) });

export function useCopyAgendaDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: copyAgendaDay,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agendaAdminKeys.all }),
  });
}
