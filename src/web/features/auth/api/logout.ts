import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { LogoutResponse } from '#shared/platform/session';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { ANONYMOUS_SESSION, LOGOUT_MUTATION_KEY, SESSION_QUERY_KEY } from '#web/platform/session/get-session';
import { rememberSession } from '#web/platform/session/known-session';
import { signOutOfFirebaseIfLoaded } from '../firebase-session';

export const logout = () => apiFetch<LogoutResponse>('/api/auth/logout', { method: 'POST' });
/** "Cerrar sesión en todos los dispositivos": every session of the person ends, this one too. */
export const logoutAll = () => apiFetch<LogoutResponse>('/api/auth/logout-all', { method: 'POST' });

export interface LogoutOptions {
  /** End every session of the person, on every device, not only this one. */
  allDevices?: boolean;
  /**
   * What else the phone forgets once the server has ended the session (the remembered session always
   * goes), before the app shows anybody signed out: a page opened right after 'Cerrar sesión' (a reload,
   * offline) finds it already forgotten.
   */
  onThePhone?: () => Promise<void>;
}

/**
 * Ends our session (or all of them), then the Firebase SDK's, if this tab signed in with it, then what
 * the phone keeps of it: from every 'Cerrar sesión' (the navbar's, the login page's, the password and
 * second-factor forms'), the next person on a shared phone is never shown as the last one.
 */
async function signOut({ allDevices = false, onThePhone }: LogoutOptions = {}): Promise<LogoutResponse> {
  const answer = await (allDevices ? logoutAll() : logout());
  await signOutOfFirebaseIfLoaded().catch((error: unknown) => console.error(error));
  rememberSession(null);
  // The session is over whatever happens here: a failure is logged, not shown as a failed sign-out.
  await onThePhone?.().catch((error: unknown) => console.error('sign-out', error));
  return answer;
}

/** Public data the app keeps after logout; everything else belonged to the person who left. */
const PUBLIC_QUERIES = new Set(['session', 'site', 'agenda', 'notas']);

/** Forgets the staff data held in memory (a sign-out, or a session that ended elsewhere). */
export const forgetStaffQueries = (queryClient: QueryClient): void =>
  queryClient.removeQueries({ predicate: (q) => !PUBLIC_QUERIES.has(String(q.queryKey[0])) });

const isSitePath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');

export { LOGOUT_MUTATION_KEY };

/** Whether this tab is signing out right now (its request sent, its answer not yet acted on). */
export const isSigningOut = (queryClient: QueryClient): boolean =>
  queryClient.isMutating({ mutationKey: LOGOUT_MUTATION_KEY }) > 0;

/** Signs out, forgets the staff data held in memory and goes to the logout route the server names. */
export const useLogout = (settings: MutationSettings = {}) => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    ...settings,
    mutationKey: LOGOUT_MUTATION_KEY,
    mutationFn: (options: LogoutOptions = {}) => signOut(options),
    // Without a connection it fails at once and says so, instead of waiting unseen and signing the
    // person out whenever the connection comes back.
    networkMode: 'always',
    onSuccess: (answer) => {
      const destination = isSitePath(answer.redirectTo) ? answer.redirectTo : '/';
      // The session first, then the way out: whatever page the app shows before the logout route (the one
      // being left, or one it was still on its way to) already knows this person is leaving, and no guard
      // sends them to /login. It stays so until the app has arrived at `destination` (KeepSessionFresh).
      queryClient.setQueryData(SESSION_QUERY_KEY, {
        ...ANONYMOUS_SESSION,
        logoutRoute: destination,
        signedOut: true as const,
      });
      forgetStaffQueries(queryClient);
      navigate(destination, { replace: true });
    },
  });
};
