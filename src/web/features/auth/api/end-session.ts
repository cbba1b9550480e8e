import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { SESSION_QUERY_KEY } from '#web/platform/session/get-session';
import { OPEN_SESSIONS_QUERY_KEY } from './get-open-sessions';

export const endSession = (id: number) =>
  apiFetch<{ ended: true; current: boolean }>(`/api/auth/sessions/${id}`, { method: 'DELETE' });

/** Ends one of the person's sessions; ending this one signs this browser out. */
export const useEndSession = (settings: MutationSettings = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: endSession,
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: answer.current ? SESSION_QUERY_KEY : OPEN_SESSIONS_QUERY_KEY });
    },
  });
};
