import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useLogout } from '#web/features/auth/api/logout';
import { useSiteInfo } from '#web/features/settings/api/get-site-info';
import { ApiError } from '#web/platform/lib/api-client';
import { setSiteName } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { type ClientSession, SESSION_QUERY_KEY, useSession } from '#web/platform/session/get-session';
import { Spinner } from '#web/platform/ui/page';
import { PUBLIC_MENU } from './menu-entries';
import { Navbar } from './navbar';

/** Toasts never outlive the page they were about. */
function DismissToastsOnRouteChange() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: dismissing on every route change is the point
  useEffect(() => {
    toast.dismiss();
  }, [pathname]);
  return null;
}

/**
 * The spec refreshes the sign-in state at every route change; an API call answered 401 (the session
 * ended or was revoked elsewhere) asks again too, so protected pages send the person to /login.
 */
function KeepSessionFresh() {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: asking again on every route change is the point
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // Arrived somewhere after this tab's own logout: from here on, a protected page goes to /login.
    queryClient.setQueryData<ClientSession>(SESSION_QUERY_KEY, (held) =>
      held?.signedOut ? { ...held, signedOut: undefined } : held,
    );
    void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
  }, [pathname]);

  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return;
        if (event.query.queryKey[0] === SESSION_QUERY_KEY[0]) return;
        const error = event.action.error;
        if (error instanceof ApiError && error.status === 401) {
          void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
        }
      }),
    [queryClient],
  );
  return null;
}

export function RootLayout() {
  const { pathname } = useLocation();
  const site = useSiteInfo();
  const session = useSession();
  const signOut = useLogout();

  const user = session.data?.user ?? null;
  const menu = session.data?.menu ?? [];
  // Staff: the departments the server lists for them. Visitors, and people signed in without a
  // department, see the public menu and the login icon. Until the answer arrives, neither.
  const isStaff = user !== null && menu.length > 0;
  const known = session.data !== undefined || session.isError;

  const campaignName = site.data?.campaignName;
  useEffect(() => {
    if (campaignName) setSiteName(campaignName);
  }, [campaignName]);

  const logout = () => signOut.mutate(undefined, { onError: (error) => toast.error(error.message) });

  return (
    <div className="flex min-h-dvh flex-col">
      <DismissToastsOnRouteChange />
      <KeepSessionFresh />
      <Navbar
        brand={site.data?.campaignName ?? 'Comando'}
        entries={isStaff ? menu : PUBLIC_MENU}
        showLogin={known && !isStaff}
        onLogout={isStaff ? logout : undefined}
        signedInAs={user?.email}
      />
      <Suspense fallback={<Spinner />}>
        {/* A one-time password opens nothing but the form to replace it, which /login shows. */}
        {user?.mustChangePassword && pathname !== paths.login ? <Navigate to={paths.login} replace /> : <Outlet />}
      </Suspense>
    </div>
  );
}
