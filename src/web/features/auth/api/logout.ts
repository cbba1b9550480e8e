import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { LogoutResponse } from '#shared/platform/session';
import { apiFetch } from '#web/platform/lib/api-client';
import { ANONYMOUS_SESSION, SESSION_QUERY_KEY } from '#web/platform/session/get-session';
import { signOutOfFirebaseIfLoaded } from '../firebase-session';

export const logout = () => apiFetch<LogoutResponse>('/api/auth/logout', { method: 'POST' });

/** Ends our session, then the Firebase SDK's, if this tab signed in with it. */
async function logoutEverywhere(): Promise<LogoutResponse> {
  const answer = await logout();
  await signOutOfFirebaseIfLoaded().catch((error: unknown) => console.error(error));
  return answer;
}

/** Public data the app keeps after logout; everything else belonged to the person who left. */
const PUBLIC_QUERIES = new Set(['session', 'site', 'agenda', 'notas']);

const isSitePath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');

/** Signs out, forgets the staff data held in memory and goes to the logout route the server names. */
export const useLogout = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logoutEverywhere,
    onSuccess: (answer) => {
      navigate(isSitePath(answer.redirectTo) ? answer.redirectTo : '/', { replace: true });
      queryClient.removeQueries({ predicate: (q) => !PUBLIC_QUERIES.has(String(q.queryKey[0])) });
      queryClient.setQueryData(SESSION_QUERY_KEY, {
        ...ANONYMOUS_SESSION,
        logoutRoute: answer.redirectTo,
        signedOut: true as const,
      });
    },
  });
};
