import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Session } from '../../../../shared/auth';
import { apiFetch } from '../../../lib/api-client';

export const SESSION_QUERY_KEY = ['session'] as const;

/** What a visitor's session looks like; also what the browser assumes right after logout. */
export const ANONYMOUS_SESSION: Session = { user: null, menu: [], home: null, logoutRoute: '/' };

export const getSession = () => apiFetch<Session>('/api/auth/session');

export const getSessionQueryOptions = () =>
  queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: getSession,
    // The server decides; the layout asks again at every route change.
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** Who is signed in and what they may open, as the server says. `isPending` while unknown. */
export const useSession = () => useQuery(getSessionQueryOptions());
