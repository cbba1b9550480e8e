import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Session } from '#shared/platform/session';
import { apiFetch } from '#web/platform/lib/api-client';

export const SESSION_QUERY_KEY = ['session'] as const;

/** The sign-out's mutation, by name: while it runs, a 401 is the sign-out itself, not a session gone elsewhere. */
export const LOGOUT_MUTATION_KEY = ['logout'] as const;

/**
 * The session as the app holds it. `signedOut` marks the anonymous session set by this tab's own logout,
 * until the app has arrived at its logout route (`logoutRoute`): the page being left, or any page drawn on
 * the way, must not send the person to /login meanwhile, not even when the server is asked again before
 * it is gone (KeepSessionFresh drops the mark on arrival).
 */
export type ClientSession = Session & { signedOut?: true };

/** What a visitor's session looks like. */
export const ANONYMOUS_SESSION: ClientSession = { user: null, menu: [], home: null, logoutRoute: '/' };

export const getSession = (): Promise<ClientSession> => apiFetch<Session>('/api/auth/session');

export const getSessionQueryOptions = () =>
  queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: async ({ client }): Promise<ClientSession> => {
      const session = await getSession();
      const held = client.getQueryData<ClientSession>(SESSION_QUERY_KEY);
      // 'Nobody' answered while this tab signs out (asked just before the sign-out, answered just after the
      // server ended the session) is the sign-out itself: the page being left must not go to /login.
      const signingOut = client.isMutating({ mutationKey: LOGOUT_MUTATION_KEY }) > 0;
      if (session.user !== null || !(held?.signedOut || signingOut)) return session;
      // Still on the way out: to the route the sign-out is heading for (KeepSessionFresh waits for it).
      return { ...session, logoutRoute: held?.signedOut ? held.logoutRoute : session.logoutRoute, signedOut: true };
    },
    // The server decides; the layout asks again at every route change.
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** Who is signed in and what they may open, as the server says. `isPending` while unknown. */
export const useSession = () => useQuery(getSessionQueryOptions());
