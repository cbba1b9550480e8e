import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ElectionPhaseBody, ElectionStatus } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys } from '#web/platform/lib/query-keys';
import { electionKey, withServerClock } from './get-election';

export const changeElectionPhase = (body: ElectionPhaseBody) =>
  apiFetch<ElectionStatus>('/api/admin/election/phase', { method: 'PUT', body: JSON.stringify(body) });

export function useChangeElectionPhase(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: changeElectionPhase,
    onSuccess: (status) => {
      queryClient.setQueryData(electionKey, withServerClock(status));
      void queryClient.invalidateQueries({ queryKey: adminKeys.election() });
    },
  });
}
