import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EndSessionsResult } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

/** "Cerrar sesión en todos los dispositivos" for someone else. */
export const endSessions = (id: number) =>
  apiFetch<EndSessionsResult>(`/api/admin/users/${id}/sessions/end`, { method: 'POST' });

export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => endSessions(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
