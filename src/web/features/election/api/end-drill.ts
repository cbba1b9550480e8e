import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DrillEndBody, DrillEndResult } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys, recordsQueryRoots } from '#web/platform/lib/query-keys';
import { electionKey } from './get-election';

export const endDrill = (body: DrillEndBody) =>
  apiFetch<DrillEndResult>('/api/admin/election/drill/end', { method: 'POST', body: JSON.stringify(body) });

/** 'Terminar simulacro': every list and count that showed the drill is read again. */
export function useEndDrill(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: endDrill,
    onSuccess: () => {
      for (const queryKey of [
        electionKey,
        adminKeys.election(),
        recordsQueryRoots.validation,
        recordsQueryRoots.admin,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
      void queryClient.invalidateQueries({ queryKey: ['results'] });
    },
  });
}
