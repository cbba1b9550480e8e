import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { messages } from '#shared/platform/messages';
import { isNetworkError } from '#web/platform/lib/api-client';
import { paths } from '#web/platform/paths';
import { useSession } from '#web/platform/session/get-session';
import { ErrorNotice, Page, PageLoading } from '#web/platform/ui/page';

export interface RequireAccessProps {
  /** The client route of the department (/resultados, /validation/{slug}...). */
  path: string;
  /** What someone signed in sees when the department is not theirs (the not-found screen). */
  notFound: ReactNode;
  /**
   * The page works without a connection (from what the phone kept): when the server cannot be reached
   * to ask who this is, it is shown anyway; every request it sends is still checked by the server.
   */
  offline?: boolean;
  children: ReactNode;
}

/**
 * Guards a staff page: an inline status (not a cover) until the server has said who this is, then the page if the
 * department is in their menu, the not-found screen if not; visitors go to /login and come back.
 * The server checks every API call again; this only spares people a page they cannot use. A session
 * known before a failed refresh still counts (the connection dropped; the session did not end).
 */
export function RequireAccess({ path, notFound, offline = false, children }: RequireAccessProps) {
  const session = useSession();
  const location = useLocation();

  if (session.isPending) return <PageLoading label={messages.loading.session} />;
  if (session.data === undefined) {
    if (offline && isNetworkError(session.error)) return children;
    return (
      <Page>
        <ErrorNotice message={session.error?.message ?? ''} onRetry={() => session.refetch()} />
      </Page>
    );
  }
  if (!session.data.user) {
    // Just signed out here: the app is on its way to the logout route, not to /login.
    if (session.data.signedOut) return null;
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`${paths.login}?next=${encodeURIComponent(next)}`} replace />;
  }
  if (!session.data.menu.some((entry) => entry.path === path)) return notFound;
  return children;
}
