import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody } from '#shared/features/auth/auth';
import { messages } from '#shared/platform/messages';
import type { Session } from '#shared/platform/session';
import { ApiError, apiFetch } from '#web/platform/lib/api-client';
import { SESSION_QUERY_KEY } from '#web/platform/session/get-session';
import { loadFirebaseSignIn } from '../firebase-session';
import { getAuthProviderQueryOptions } from './get-auth-provider';
import { loginWithFirebase } from './login-with-firebase';

export const login = (body: LoginBody) =>
  apiFetch<Session>('/api/auth/login', { method: 'POST', body: JSON.stringify(body) });

/**
 * Signs in; on success the session the server answered becomes the app's session at once. Where
 * Firebase checks passwords, the SDK signs in first and its ID token is exchanged for our session.
 */
export const useLogin = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: LoginBody) => {
      const provider = await queryClient.fetchQuery(getAuthProviderQueryOptions());
      if (provider.provider === 'local') return login(body);
      const sdk = await loadFirebaseSignIn().catch(() => {
        throw new ApiError(0, messages.api.network);
      });
      const idToken = await sdk.firebaseIdToken(provider, body.email, body.password);
      try {
        return await loginWithFirebase({ idToken });
      } catch (error) {
        // Refused here (no account, disabled): the SDK must not keep holding that person.
        await sdk.signOutOfFirebase().catch(() => undefined);
        throw error;
      }
    },
    onSuccess: (session) => queryClient.setQueryData(SESSION_QUERY_KEY, session),
  });
};
