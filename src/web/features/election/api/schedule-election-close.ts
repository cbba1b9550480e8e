import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ElectionCloseBody, ElectionStatus } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys } from '#web/platform/lib/query-keys';
import { electionKey, withServerClock } from './get-election';

export const scheduleElectionClose = (body: ElectionCloseBody) =>
  apiFetch<ElectionStatus>('/api/admin/election/close', { method: 'PUT', body: JSON.stringify(body) });

export function useScheduleElectionClose(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: scheduleElectionClose,
    onSuccess: (status) => {
      queryClient.setQueryData(electionKey, withServerClock(status));
      void queryClient.invalidateQueries({ queryKey: adminKeys.election() });
    },
  });
}
