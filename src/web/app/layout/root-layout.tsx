import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { messages } from '#shared/platform/messages';
import { forgetStaffQueries, isSigningOut, useLogout } from '#web/features/auth/api/logout';
import { DayPill } from '#web/features/election/components/day-status';
import { DrillBand } from '#web/features/election/components/drill-band';
import {
  endedWithWaiting,
  hasUnsentHint,
  purgeSeen,
  rememberEndedWithWaiting,
  rememberedOwner,
  rememberOwner,
  rememberPurgeSeen,
} from '#web/features/records/device/device-hints';
import { useSiteInfo } from '#web/features/settings/api/get-site-info';
import { ApiError, isNetworkError } from '#web/platform/lib/api-client';
import { showErrorToast, showsOwnError } from '#web/platform/lib/mutation-errors';
import { recordsQueryRoots } from '#web/platform/lib/query-keys';
import { setSiteName } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { type ClientSession, SESSION_QUERY_KEY, useSession } from '#web/platform/session/get-session';
import {
  rememberCampaignName,
  rememberedCampaignName,
  rememberedSession,
  rememberSession,
} from '#web/platform/session/known-session';
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

/** Whether `pathname` is where `route` (a path of this site, maybe with a query) leads. */
const isAt = (route: string, pathname: string): boolean => new URL(route, 'http://sitio.invalid').pathname === pathname;

/**
 * The spec refreshes the sign-in state at every route change; an API call answered 401 (the session
 * ended or was revoked elsewhere) asks again too, so protected pages send the person to /login.
 */
function KeepSessionFresh() {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const first = useRef(true);
  const previous = useRef(pathname);

  // biome-ignore lint/correctness/useExhaustiveDependencies: asking again on every route change is the point
  useEffect(() => {
    const from = previous.current;
    previous.current = pathname;
    if (first.current) {
      first.current = false;
      return;
    }
    // Arrived at the logout route after this tab's own logout (or left it, when the sign-out began there):
    // from here on, a protected page goes to /login. Not before: a page shown on the way (the sign-in's
    // landing page, drawn late on a slow phone) is still part of leaving, not a visit to be sent to /login.
    queryClient.setQueryData<ClientSession>(SESSION_QUERY_KEY, (held) =>
      held?.signedOut && (isAt(held.logoutRoute, pathname) || isAt(held.logoutRoute, from))
        ? { ...held, signedOut: undefined }
        : held,
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
        // A page's request refused while this tab signs out: the sign-out goes to its own route, not /login.
        if (error instanceof ApiError && error.status === 401 && !isSigningOut(queryClient)) {
          // The session is over: the lists kept for offline use go now, before anything else happens.
          void loadOutboxSession().then((m) => m.forgetLists());
          void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
        }
      }),
    [queryClient],
  );
  return null;
}

/**
 * What the phone keeps follows the session the server confirms (docs/decisions/061): it remembers who
 * is signed in, for when it cannot ask; when someone else signs in, the lists kept for the previous
 * person go; when the server says nobody is signed in and this tab did not sign out, the session ended
 * elsewhere (an admin, a reset, expiry): the lists, the sent items and the staff data in memory go, and
 * the person's waiting items stay for them.
 */
function FollowSessionOnThePhone({
  session,
  onEnded,
}: {
  session: ClientSession | undefined;
  /** The session ended elsewhere (null: someone signed in), with how many of its items wait. */
  onEnded: (waiting: number | null) => void;
}) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!session) return;
    const previous = rememberedOwner();
    if (session.user) {
      rememberSession(session);
      rememberEndedWithWaiting(null);
      onEnded(null);
      if (previous !== session.user.email) {
        rememberOwner(session.user.email);
        if (previous) void loadOutboxSession().then((m) => m.forgetLists());
      }
      // 'Borrar datos personales' ran since this phone last asked: the lists it kept (on disk and in
      // memory) hold names and phones that no longer exist; they go, and are read again as they are now.
      const purgedAt = session.personalDataPurgedAt ?? null;
      if (purgedAt && purgedAt !== purgeSeen()) {
        queryClient.removeQueries({ queryKey: recordsQueryRoots.validation });
        void loadOutboxSession()
          .then((m) => m.forgetLists())
          .then(() => rememberPurgeSeen(purgedAt))
          .catch((error: unknown) => console.error('purge', error));
      }
      return;
    }
    rememberSession(null);
    // This tab's own sign-out cleans up after itself (and asked about the waiting items).
    if (session.signedOut || !previous) return;
    forgetStaffQueries(queryClient);
    void loadOutboxSession()
      .then((m) => m.forgetEndedSession(previous))
      .then(onEnded)
      .catch((error: unknown) => console.error('session ended', error));
  }, [session, queryClient, onEnded]);
  return null;
}

/** On /login after a session ended elsewhere while items waited: they are kept, and will be sent. */
function SessionEndedNotice({ count }: { count: number }) {
  if (count === 0) return null;
  const what = count === 1 ? '1 voto o foto guardado' : `${count} votos o fotos guardados`;
  return (
    <div className="mx-auto mt-4 w-full max-w-md px-4">
      <p role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
        Tu sesión terminó. {count === 1 ? 'Tu' : 'Tus'} {what} en este teléfono no se{' '}
        {count === 1 ? 'perdió' : 'perdieron'}: {count === 1 ? 'se enviará' : 'se enviarán'} cuando vuelvas a entrar con
        tu cuenta.
      </p>
    </div>
  );
}

export function RootLayout() {
  const { pathname } = useLocation();
  const site = useSiteInfo();
  const session = useSession();
  const signOut = useLogout(showsOwnError);
  const queryClient = useQueryClient();
  // Asking about the items waiting when the person signs out (their e-mail while the question is open).
  const [askingAbout, setAskingAbout] = useState<string | null>(null);
  // A session that ended elsewhere left this many items waiting (said on /login).
  const [endedWaiting, setEndedWaiting] = useState(endedWithWaiting);
  const onSessionEndedElsewhere = useCallback((waiting: number | null) => setEndedWaiting(waiting ?? 0), []);
  // "Cerrar sesión en todos los dispositivos": asked first, then the same steps as a sign-out.
  const [askAllDevices, setAskAllDevices] = useState(false);
  const [allDevices, setAllDevices] = useState(false);
  const [applyUpdate, setApplyUpdate] = useState<(() => void) | null>(null);

  // While the session is asked, and when it cannot be (no connection), the frame shows the one the server
  // confirmed last: a validator in the field does not look signed out. (The server checks every request.)
  const shown = session.data ?? (session.isPending || isNetworkError(session.error) ? rememberedSession() : null);
  const user = session.data?.user ?? null;
  const shownUser = shown?.user ?? null;
  const menu = shown?.menu ?? [];
  // Staff: the departments the server lists for them. Visitors, and people signed in without a
  // department, see the public menu and the login icon. Until the answer arrives, neither.
  const isStaff = shownUser !== null && menu.length > 0;
  const known = shown !== null || session.isError;
  // The count of waiting items: for people signed in, and for anybody while items wait on this phone
  // (offline, or after a session ended).
  const showOutbox = shownUser !== null || hasUnsentHint();
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

  // The campaign's name as the server said it last, while it cannot be asked.
  const campaignName = site.data?.campaignName ?? rememberedCampaignName();
  useEffect(() => {
    if (!campaignName) return;
    setSiteName(campaignName);
    rememberCampaignName(campaignName);
  }, [campaignName]);

  const finishSignOut = (dropWaiting: boolean, everywhere: boolean) => {
    const email = user?.email;
    setAskingAbout(null);
    signOut.mutate(
      {
        allDevices: everywhere,
        // Only once the server ended the session, and before the app shows the person signed out: the phone
        // forgets the session, the lists (and, if asked, the items), so a page opened at once (a reload,
        // offline) never counts the items as this person's.
        onThePhone: async () => {
          if (email) await loadOutboxSession().then((m) => m.forgetDevice(email, dropWaiting));
        },
      },
      {
        onSuccess: () => setAskAllDevices(false),
        onError: (error) => {
          setAskAllDevices(false);
          showErrorToast(isNetworkError(error) ? messages.session.signOutNeedsConnection : error.message);
        },
      },
    );
  };

  const logout = async (everywhere: boolean) => {
    setAllDevices(everywhere);
    // Items of this person still waiting on the phone: say so and ask first. (Without the hint nothing
    // waits, and nothing waiting is ever deleted without asking, so the outbox need not be loaded to know.)
    const waiting = user && hasUnsentHint() ? await loadOutboxSession().then((m) => m.waitingOnDevice(user.email)) : 0;
    if (user && waiting > 0) {
      setAskAllDevices(false);
      setAskingAbout(user.email);
    } else finishSignOut(false, everywhere);
  };

  return (
    <div className="flex min-h-dvh flex-col">
      <DismissToastsOnRouteChange />
      <KeepSessionFresh />
      <FollowSessionOnThePhone session={session.data} onEnded={onSessionEndedElsewhere} />
      <Navbar
        brand={campaignName ?? 'Comando'}
        entries={isStaff ? menu : PUBLIC_MENU}
        showLogin={known && !isStaff}
        onLogout={isStaff ? () => void logout(false) : undefined}
        onLogoutEverywhere={isStaff ? () => setAskAllDevices(true) : undefined}
        status={
          <>
            {/* Staff only, like the SIMULACRO band: the phase, the countdown to the close, or 'Jornada cerrada'. */}
            {user && isStaff && <DayPill />}
            {showOutbox ? (
              <Suspense fallback={null}>
                <OutboxNavItem owner={user?.email ?? null} onSessionEnded={onSessionEnded} />
              </Suspense>
            ) : null}
          </>
        }
        signedInAs={shownUser?.email}
      />
      {/* Staff only: the public pages never say which phase the day is in. */}
      <DrillBand enabled={Boolean(user)} />
      {pathname === paths.login && <SessionEndedNotice count={endedWaiting} />}
      <Suspense fallback={<Spinner />}>
        {/* A one-time password, or an owed second factor, opens nothing but its form, which /login shows. */}
        {(user?.mustChangePassword || user?.secondFactor) && pathname !== paths.login ? (
          <Navigate to={paths.login} replace />
        ) : (
          <Outlet />
        )}
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
      {askingAbout !== null && (
        <Suspense fallback={null}>
          <SignOutDialog
            owner={askingAbout}
            open
            onKeep={() => finishSignOut(false, allDevices)}
            onDrop={() => finishSignOut(true, allDevices)}
            onCancel={() => setAskingAbout(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
