import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgendaCopyBody, AgendaCopyResult } from '../../../../shared/agenda-admin';
import { apiFetch } from '../../../lib/api-client';
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
