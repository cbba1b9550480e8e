import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { type IpPlaceSource, LOCAL_NETWORK } from '#shared/features/auth/auth';
import { formatDateAndTime } from '#shared/platform/format';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { useSession } from '#web/platform/session/get-session';
import { cardClass } from '#web/platform/ui/back-office';
import { ErrorNotice, Page, Spinner } from '#web/platform/ui/page';
import { useEndSession } from '../api/end-session';
import { useOpenSessions } from '../api/get-open-sessions';
import { SECOND_FACTOR_QUERY_KEY, useSecondFactor } from '../api/get-second-factor';
import { EnrolForm } from './second-factor-form';

/** 'Tu cuenta': the person's second factor and open sessions (decisions 080 and 081's companion). */
export function AccountPage() {
  useDocumentTitle('Tu cuenta');
  const session = useSession();
  if (session.isPending) return <Spinner />;
  const email = session.data?.user?.email;
  // Nobody signed in (or the session was ended from elsewhere): the sign-in, then back here.
  if (!email) return <Navigate to={`${paths.login}?next=${encodeURIComponent(paths.account)}`} replace />;
  return (
    <Page>
      <h1 className="mb-4 text-3xl font-black tracking-tight text-brand">Tu cuenta</h1>
      <div className="flex max-w-2xl flex-col gap-6">
        <SecondFactorSection email={email} />
        <OpenSessionsSection />
      </div>
    </Page>
  );
}

function SecondFactorSection({ email }: { email: string }) {
  const status = useSecondFactor();
  const queryClient = useQueryClient();
  const [enrolling, setEnrolling] = useState(false);
  return (
    <section aria-labelledby="cuenta-segundo-factor" className={`${cardClass} flex flex-col gap-3`}>
      <h2 id="cuenta-segundo-factor" className="text-xl font-bold text-stone-900">
        Segundo factor
      </h2>
      {status.isPending ? (
        <Spinner />
      ) : status.isError ? (
        <ErrorNotice message={status.error.message} onRetry={() => status.refetch()} />
      ) : status.data.enabled ? (
        <p className="text-stone-700">
          Activado. Te quedan {status.data.recoveryCodesLeft} códigos de recuperación. Si pierdes el teléfono, pide a un
          administrador que lo restablezca.
        </p>
      ) : enrolling ? (
        <EnrolForm
          email={email}
          onDone={() => {
            setEnrolling(false);
            void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY });
          }}
        />
      ) : (
        <>
          <p className="text-stone-700">
            Sin activar. Con el segundo factor, entrar pide además un código de una aplicación de tu teléfono.
          </p>
          <div>
            <button
              type="button"
              onClick={() => setEnrolling(true)}
              className="rounded-lg bg-brand px-4 py-2 font-bold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
            >
              Configurar el segundo factor
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function OpenSessionsSection() {
  const sessions = useOpenSessions();
  const end = useEndSession();
  return (
    <section aria-labelledby="cuenta-sesiones" className={`${cardClass} flex flex-col gap-3`}>
      <h2 id="cuenta-sesiones" className="text-xl font-bold text-stone-900">
        Sesiones abiertas
      </h2>
      {sessions.isPending ? (
        <Spinner />
      ) : sessions.isError ? (
        <ErrorNotice message={sessions.error.message} onRetry={() => sessions.refetch()} />
      ) : (
        <ul className="flex flex-col gap-2">
          {sessions.data.sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-stone-50 p-3">
              <div className="text-sm text-stone-800">
                <p className="font-semibold text-stone-900">
                  {s.device}
                  {s.current && <span className="ml-2 text-brand">(esta sesión)</span>}
                </p>
                <p>
                  IP {s.ip ?? 'desconocida'}
                  {s.place && ` · ${s.place}`}
                </p>
                <p>Abierta: {formatDateAndTime(s.createdAt)}</p>
                <p>Último uso: {formatDateAndTime(s.lastUsedAt)}</p>
              </div>
              <button
                type="button"
                onClick={() => end.mutate(s.id)}
                disabled={end.isPending}
                aria-label={`Cerrar la sesión de ${s.device} abierta el ${formatDateAndTime(s.createdAt)}${s.current ? ' (esta sesión)' : ''}`}
                className="rounded-lg border border-brand px-3 py-1.5 text-sm font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-wait"
              >
                Cerrar sesión
              </button>
            </li>
          ))}
        </ul>
      )}
      {sessions.data?.placeSource && sessions.data.sessions.some((s) => s.place && s.place !== LOCAL_NETWORK) && (
        <PlaceCredit source={sessions.data.placeSource} />
      )}
    </section>
  );
}

/** The place database's credit, where its places are shown (DB-IP's licence asks for it, with its link). */
function PlaceCredit({ source }: { source: IpPlaceSource }) {
  return (
    <p className="text-xs text-stone-600">
      Lugares según la IP:{' '}
      {source.url ? (
        <a href={source.url} className="underline hover:text-brand" rel="noreferrer" target="_blank">
          {source.text}
        </a>
      ) : (
        source.text
      )}
    </p>
  );
}
