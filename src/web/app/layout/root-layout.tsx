import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useLogout } from '#web/features/auth/api/logout';
import { hasUnsentHint } from '#web/features/records/outbox/device-hints';
import { useSiteInfo } from '#web/features/settings/api/get-site-info';
import { ApiError } from '#web/platform/lib/api-client';
import { setSiteName } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { type ClientSession, SESSION_QUERY_KEY, useSession } from '#web/platform/session/get-session';
import { Spinner } from '#web/platform/ui/page';
import { PUBLIC_MENU } from './menu-entries';
import { Navbar } from './navbar';
import { UpdatePrompt } from './update-prompt';

// The phone's outbox (IndexedDB and its code) loads only for people signed in, or when items wait.
const loadOutboxSession = () => import('#web/features/records/components/outbox-session');
const OutboxNavItem = lazy(loadOutboxSession);
const SignOutDialog = lazy(() => loadOutboxSession().then((m) => ({ default: m.SignOutDialog })));
const SignOutEverywhereDialog = lazy(() => import('#web/features/auth/components/sign-out-everywhere-dialog'));

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

  // Back online: whatever failed for want of a connection (the session above all, when the app was
  // opened offline) is asked again. TanStack Query only does so after an 'offline' event it saw.
  useEffect(() => {
    const retryFailed = () =>
      void queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
    window.addEventListener('online', retryFailed);
    return () => window.removeEventListener('online', retryFailed);
  }, [queryClient]);

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
  const queryClient = useQueryClient();
  const [unsentAtSignOut, setUnsentAtSignOut] = useState(0);
  // "Cerrar sesión en todos los dispositivos": asked first, then the same steps as a sign-out.
  const [askAllDevices, setAskAllDevices] = useState(false);
  const [allDevices, setAllDevices] = useState(false);
  const [applyUpdate, setApplyUpdate] = useState<(() => void) | null>(null);

  const user = session.data?.user ?? null;
  const menu = session.data?.menu ?? [];
  // Staff: the departments the server lists for them. Visitors, and people signed in without a
  // department, see the public menu and the login icon. Until the answer arrives, neither.
  const isStaff = user !== null && menu.length > 0;
  const known = session.data !== undefined || session.isError;
  // The count of waiting items: for people signed in, and for anybody while items wait on this phone
  // (offline, or after a session ended).
  const showOutbox = user !== null || hasUnsentHint();
  // The installable app's service worker: registered for people signed in only (public pages stay light).
  const signedIn = user !== null;
  useEffect(() => {
    if (!signedIn) return;
    void import('#web/platform/lib/service-worker')
      .then((m) => m.startServiceWorker((apply) => setApplyUpdate(() => apply)))
      .catch((error: unknown) => console.error('service worker', error));
  }, [signedIn]);
  const onSessionEnded = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
    [queryClient],
  );

  const campaignName = site.data?.campaignName;
  useEffect(() => {
    if (campaignName) setSiteName(campaignName);
  }, [campaignName]);

  const finishSignOut = (dropUnsent: boolean, everywhere: boolean) => {
    const email = user?.email;
    setUnsentAtSignOut(0);
    signOut.mutate(
      { allDevices: everywhere },
      {
        // Only once the server ended the session: the phone forgets the lists (and, if asked, the items).
        onSuccess: () => {
          setAskAllDevices(false);
          if (email) void loadOutboxSession().then((m) => m.forgetDevice(email, dropUnsent));
        },
        onError: (error) => {
          setAskAllDevices(false);
          toast.error(error.message);
        },
      },
    );
  };

  const logout = async (everywhere: boolean) => {
    setAllDevices(everywhere);
    // Items of this person still on the phone: say so and ask first. (Without the hint nothing waits, and
    // nothing unsent is ever deleted without asking, so the outbox need not be loaded to know.)
    const unsent = user && hasUnsentHint() ? await loadOutboxSession().then((m) => m.unsentOnDevice(user.email)) : 0;
    if (unsent > 0) {
      setAskAllDevices(false);
      setUnsentAtSignOut(unsent);
    } else finishSignOut(false, everywhere);
  };

  return (
    <div className="flex min-h-dvh flex-col">
      <DismissToastsOnRouteChange />
      <KeepSessionFresh />
      <Navbar
        brand={site.data?.campaignName ?? 'Comando'}
        entries={isStaff ? menu : PUBLIC_MENU}
        showLogin={known && !isStaff}
        onLogout={isStaff ? () => void logout(false) : undefined}
        onLogoutEverywhere={isStaff ? () => setAskAllDevices(true) : undefined}
        status={
          showOutbox ? (
            <Suspense fallback={null}>
              <OutboxNavItem owner={user?.email ?? null} onSessionEnded={onSessionEnded} />
            </Suspense>
          ) : null
        }
        signedInAs={user?.email}
      />
      <Suspense fallback={<Spinner />}>
        {/* A one-time password opens nothing but the form to replace it, which /login shows. */}
        {user?.mustChangePassword && pathname !== paths.login ? <Navigate to={paths.login} replace /> : <Outlet />}
      </Suspense>
      {applyUpdate && <UpdatePrompt onUpdate={applyUpdate} onLater={() => setApplyUpdate(null)} />}
      {askAllDevices && (
        <Suspense fallback={null}>
          <SignOutEverywhereDialog
            pending={signOut.isPending}
            onConfirm={() => void logout(true)}
            onCancel={() => setAskAllDevices(false)}
          />
        </Suspense>
      )}
      {unsentAtSignOut > 0 && (
        <Suspense fallback={null}>
          <SignOutDialog
            count={unsentAtSignOut}
            onKeep={() => finishSignOut(false, allDevices)}
            onDrop={() => finishSignOut(true, allDevices)}
            onCancel={() => setUnsentAtSignOut(0)}
          />
        </Suspense>
      )}
    </div>
  );
}
