import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '#shared/features/auth/auth';
import type { Session } from '#shared/platform/session';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { SESSION_QUERY_KEY } from '#web/platform/session/get-session';

export const changePassword = (body: ChangePasswordBody) =>
  apiFetch<Session>('/api/auth/password', { method: 'POST', body: JSON.stringify(body) });

/** Replaces the signed-in person's password; the answer is their session, now with its menu. */
export const useChangePassword = (settings: MutationSettings = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: changePassword,
    onSuccess: (session) => queryClient.setQueryData(SESSION_QUERY_KEY, session),
  });
};
