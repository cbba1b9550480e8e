import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { spanishDayTitle } from '#shared/platform/format';
import { messages } from '#shared/platform/messages';
import { HOME_NOTAS } from '#shared/platform/public-pages';
import { toDisplayEvents } from '#web/features/agenda/agenda-text';
import { useAgendaToday } from '#web/features/agenda/api/get-agenda-today';
import { AgendaEventList } from '#web/features/agenda/components/agenda-event-list';
import { useNotas } from '#web/features/notas/api/get-notas';
import { useSiteInfo } from '#web/features/settings/api/get-site-info';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { Page, Spinner } from '#web/platform/ui/page';

const HOME_EVENTS = 3;

/**
 * Holds the place of a list while it loads: an invisible copy of a full list (one line per item, the
 * same boxes as AgendaEventList and the notas links) shares one grid cell with what is shown, so the
 * section is as tall before the answer as after it and the page below does not move (CLS).
 */
function Reserved({
  items,
  lines = 1,
  itemClass,
  gapClass,
  children,
}: {
  items: number;
  /** Lines of text in each item. */
  lines?: number;
  itemClass: string;
  gapClass: string;
  children: ReactNode;
}) {
  return (
    <div className="grid *:col-start-1 *:row-start-1">
      <div className={`invisible flex flex-col ${gapClass}`} aria-hidden="true">
        {Array.from({ length: items }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
          <div key={i} className={itemClass}>
            {Array(lines).fill('\u00a0').join('\n')}
          </div>
        ))}
      </div>
      <div>{children}</div>
    </div>
  );
}

export function HomePage() {
  useDocumentTitle('');
  const site = useSiteInfo();
  const agenda = useAgendaToday();
  const notas = useNotas(HOME_NOTAS);
  const events = agenda.data ? toDisplayEvents(agenda.data) : [];
  const latest = notas.data?.pages[0]?.items ?? [];
  // No copy of the notas yet (or none to be had): what the server says, instead of "no notas".
  const notice = notas.data?.pages[0]?.notice;

  return (
    <Page>
      <section className="mb-8 rounded-2xl bg-brand px-5 py-8 text-white shadow-md" aria-labelledby="home-title">
        <p className="text-sm font-semibold tracking-widest text-white uppercase">
          {site.data ? spanishDayTitle(site.data.today) : '\u00a0'}
        </p>
        <h1 id="home-title" className="mt-2 text-3xl font-black leading-tight">
          {site.data?.campaignName ?? 'Comando'}
        </h1>
        <p className="mt-1 text-lg text-white">{site.data?.leaderName ?? '\u00a0'}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link
            to={paths.agenda}
            className="rounded-lg bg-white px-4 py-2 font-semibold text-brand hover:bg-brand-light focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            Ver la agenda de hoy
          </Link>
          <Link
            to={paths.notas}
            className="rounded-lg border border-white px-4 py-2 font-semibold text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            Leer las notas
          </Link>
        </div>
      </section>

      <section className="mb-8" aria-labelledby="home-agenda">
        <div className="mb-3 flex items-baseline justify-between">
          <h2 id="home-agenda" className="text-2xl font-bold">
            Agenda de hoy
          </h2>
          <Link to={paths.agenda} className="font-semibold text-brand underline-offset-2 hover:underline">
            Ver todo
          </Link>
        </div>
        {/* A compact event is two lines (description, place) in p-3 with a border. */}
        <Reserved
          items={HOME_EVENTS}
          lines={2}
          gapClass="gap-3"
          itemClass="rounded-xl border p-3 leading-6 whitespace-pre-line"
        >
          {agenda.isPending ? (
            <Spinner label="Cargando la agenda…" />
          ) : events.length === 0 ? (
            <p className="rounded-xl border border-dashed border-stone-300 bg-white p-4 text-stone-600">
              {agenda.isError ? agenda.error.message : messages.agenda.empty}
            </p>
          ) : (
            <AgendaEventList events={events.slice(0, HOME_EVENTS)} compact />
          )}
        </Reserved>
      </section>

      <section className="mb-8" aria-labelledby="home-notas">
        <div className="mb-3 flex items-baseline justify-between">
          <h2 id="home-notas" className="text-2xl font-bold">
            Últimas notas
          </h2>
          <Link to={paths.notas} className="font-semibold text-brand underline-offset-2 hover:underline">
            Ver todas
          </Link>
        </div>
        <Reserved items={HOME_NOTAS} gapClass="gap-2" itemClass="rounded-xl border p-4 leading-6">
          {notas.isPending ? (
            <Spinner label="Cargando notas…" />
          ) : latest.length === 0 ? (
            <p
              className="rounded-xl border border-dashed border-stone-300 bg-white p-4 text-stone-600"
              role={notice ? 'status' : undefined}
            >
              {notas.isError ? notas.error.message : (notice ?? messages.notas.empty)}
            </p>
          ) : (
            <ul className="flex flex-col gap-2">
              {latest.map((n) => (
                <li key={n.id}>
                  <Link
                    to={paths.notas}
                    className="block rounded-xl border border-stone-200 bg-white p-4 font-semibold text-stone-900 shadow-sm hover:border-brand"
                  >
                    {n.title}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Reserved>
      </section>

      <section className="rounded-xl border border-stone-200 bg-white p-5 text-center" aria-labelledby="home-staff">
        <h2 id="home-staff" className="text-lg font-bold">
          ¿Eres parte del equipo?
        </h2>
        <p className="mt-1 text-stone-600">Entra para validar tu municipio o ver los resultados.</p>
        <Link
          to={paths.login}
          className="mt-3 inline-block rounded-lg bg-brand px-5 py-2 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
        >
          Iniciar sesión
        </Link>
      </section>
    </Page>
  );
}

export default HomePage;
