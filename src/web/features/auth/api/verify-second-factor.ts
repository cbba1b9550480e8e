import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SecondFactorCodeBody } from '#shared/features/auth/second-factor';
import type { Session } from '#shared/platform/session';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { SESSION_QUERY_KEY } from '#web/platform/session/get-session';

export const verifySecondFactor = (body: SecondFactorCodeBody) =>
  apiFetch<Session>('/api/auth/second-factor/verify', { method: 'POST', body: JSON.stringify(body) });

/** Gives the code after signing in; the answer is the session, now with its menu. */
export const useVerifySecondFactor = (settings: MutationSettings = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: verifySecondFactor,
    onSuccess: (session) => queryClient.setQueryData(SESSION_QUERY_KEY, session),
  });
};
