import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { FieldOverview, FieldPace, FieldPaceRow } from '#shared/features/field/field';
import { dateInTimeZone, formatCount } from '#shared/platform/format';
import { downloadCsv } from '#web/platform/charts/download';
import { WAITING_STEPS, waitingStep } from '#web/platform/charts/tile-colours';
import { type MapTile, TileMap } from '#web/platform/charts/tile-map';
import { formatDateTime } from '#web/platform/lib/format';
import { useLiveChanges } from '#web/platform/lib/use-live-changes';
import { paths } from '#web/platform/paths';
import { useSession } from '#web/platform/session/get-session';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { useFieldPace } from '../api/get-field-pace';

/** A cell of the pace table; on a phone, a block with its column's name above its value. */
const cell =
  'px-3 py-2 max-sm:block max-sm:py-1 max-sm:before:block max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-stone-600 max-sm:before:content-[attr(data-label)]';

const button =
  'rounded-md border border-stone-400 bg-white px-3 py-1.5 text-sm font-semibold text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-stone-900';

/**
 * Campo follows the live stream when its person may open it (the Resultados list): each vote or photo
 * (a change of the departments' figures on the stream) asks for the field's answers again at once. Everyone keeps the page's own refresh, which also brings the
 * phones' reports (they are not on the stream); the pace is asked for again with it.
 */
export function useFieldLive(overviewUpdatedAt: number): void {
  const queryClient = useQueryClient();
  const session = useSession();
  const mayWatch = Boolean(session.data?.user && session.data.menu.some((e) => e.path === paths.resultados));
  useLiveChanges(mayWatch, () => void queryClient.refetchQueries({ queryKey: ['field'], type: 'active' }));
  useEffect(() => {
    if (overviewUpdatedAt > 0) void queryClient.refetchQueries({ queryKey: ['field', 'pace'], type: 'active' });
  }, [overviewUpdatedAt, queryClient]);
}

/** A department's square on Campo: coloured by what waits on its validators' phones; marked when someone is stuck. */
export function fieldTile(d: FieldOverview['departments'][number]): MapTile {
  const stuck =
    d.stuck > 0 ? `; ${formatCount(d.stuck)} ${d.stuck === 1 ? 'validador atascado' : 'validadores atascados'}` : '';
  return {
    slug: d.slug,
    title: d.title,
    colour: waitingStep(d.waiting),
    value: formatCount(d.waiting),
    summary: `${d.title}: ${formatCount(d.waiting)} por enviar en ${formatCount(d.withWaiting)} de ${formatCount(d.validators)} validadores${stuck}.`,
    alert: d.stuck > 0 ? stuck : undefined,
  };
}

/** Campo's map: items waiting on phones per department, those with someone stuck marked; a click opens it. */
export function FieldMap({ overview }: { overview: FieldOverview }) {
  const navigate = useNavigate();
  return (
    <div className="mt-6">
      <TileMap
        id="mapa-campo"
        title="Mapa: por enviar y atascados"
        tiles={overview.departments.map(fieldTile)}
        legend={WAITING_STEPS}
        onOpen={(slug) => navigate(paths.field(slug))}
        fileName={`mapa-campo-${dateInTimeZone(new Date(overview.generatedAt))}`}
        table={{
          columns: ['Municipio o parroquia', 'Validadores', 'Con envíos', 'Por enviar', 'Atascados', 'Color'],
          rows: overview.departments.map((d) => ({
            slug: d.slug,
            title: d.title,
            cells: [
              formatCount(d.validators),
              formatCount(d.withWaiting),
              formatCount(d.waiting),
              formatCount(d.stuck),
              waitingStep(d.waiting).label,
            ],
          })),
        }}
      />
      <p className="mt-1 text-center text-sm text-stone-800">
        Borde doble y «!»: hay validadores con envíos esperando hace más de 10 min.
      </p>
    </div>
  );
}

/** 'hace 12 min' from the answer's time (the server's clock). */
function since(iso: string, from: string): string {
  const minutes = Math.max(0, Math.floor((new Date(from).getTime() - new Date(iso).getTime()) / 60_000));
  if (minutes < 60) return `hace ${minutes} min`;
  return `hace ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const stateOf = (v: FieldPaceRow) => (v.stuck ? 'Atascado' : v.idle ? 'Inactivo' : 'Activo');

/**
 * The pace of each validator (of one department, or of all): votes in the last hour, the last one, idle
 * after 30 minutes without one, and what waits on their phone. The stuck and the idle first, in words.
 */
export function FieldPaceTable({ slug }: { slug?: string | undefined }) {
  const pace = useFieldPace();
  const [all, setAll] = useState(false);
  if (pace.isPending) return <Spinner label="Cargando el ritmo…" />;
  if (pace.isError) return <ErrorNotice message={pace.error.message} onRetry={() => pace.refetch()} />;
  const answer: FieldPace = pace.data;
  const rows = answer.validators.filter((v) => !slug || v.slug === slug);
  const idle = rows.filter((v) => v.idle).length;
  const shown = all ? rows : rows.slice(0, 50);
  const csv = () =>
    downloadCsv(`ritmo-${slug ?? 'todos'}-${dateInTimeZone(new Date(answer.generatedAt))}.csv`, [
      ['Validador', 'Municipio o parroquia', 'Votos en la última hora', 'Último voto', 'Estado', 'Por enviar'],
      ...rows.map((v) => [
        v.email,
        v.title,
        v.lastHour,
        v.lastActivityAt ? formatDateTime(v.lastActivityAt) : 'Sin votos hoy',
        stateOf(v),
        v.waiting,
      ]),
    ]);
  return (
    <section aria-labelledby="ritmo-titulo" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="ritmo-titulo" className="text-xl font-bold text-stone-900">
          Ritmo de los validadores
        </h2>
        <button type="button" className={button} onClick={csv}>
          Descargar CSV
        </button>
      </div>
      <p className="mt-1 text-stone-800">
        {formatCount(idle)} de {formatCount(rows.length)} sin votar hace más de {answer.idleAfterMinutes} min.
      </p>
      {rows.length === 0 ? (
        <p className="mt-3 text-stone-700">Nadie está en estas listas.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls sideways on a phone must be reachable by keyboard (axe: scrollable-region-focusable)
        <div className="mt-3 overflow-x-auto rounded-xl border border-stone-200" tabIndex={0}>
          {/* On a phone each validator is a block of label and value (the header row hidden), so no column
              is cut off; from sm on, the table as it is. */}
          <table className="w-full border-collapse text-sm max-sm:block sm:min-w-[36rem]" data-testid="tabla-ritmo">
            <caption className="sr-only">Ritmo de cada validador</caption>
            <thead className="bg-stone-100 text-left text-stone-800 max-sm:sr-only">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Validador
                </th>
                {!slug && (
                  <th scope="col" className="px-3 py-2">
                    Municipio o parroquia
                  </th>
                )}
                <th scope="col" className="px-3 py-2 text-right">
                  Votos en la última hora
                </th>
                <th scope="col" className="px-3 py-2">
                  Último voto
                </th>
                <th scope="col" className="px-3 py-2">
                  Estado
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Por enviar
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 text-stone-900 max-sm:block">
              {shown.map((v) => (
                <tr
                  key={`${v.slug} ${v.email}`}
                  className={`${v.stuck ? 'bg-red-50' : v.idle ? 'bg-amber-50' : 'bg-white'} max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-1`}
                >
                  <th scope="row" className="px-3 py-2 text-left font-semibold break-all max-sm:col-span-2">
                    {v.email}
                  </th>
                  {!slug && (
                    <td className={cell} data-label="Municipio o parroquia">
                      {v.title}
                    </td>
                  )}
                  <td
                    className={`${cell} text-right tabular-nums max-sm:text-left`}
                    data-label="Votos en la última hora"
                  >
                    {formatCount(v.lastHour)}
                  </td>
                  <td className={cell} data-label="Último voto">
                    {v.lastActivityAt ? (
                      <time dateTime={v.lastActivityAt} title={formatDateTime(v.lastActivityAt)}>
                        {since(v.lastActivityAt, answer.generatedAt)}
                      </time>
                    ) : (
                      'Sin votos hoy'
                    )}
                  </td>
                  <td className={cell} data-label="Estado">
                    <span
                      className={`inline-block rounded-full px-2 py-0.5 text-xs font-bold ${v.stuck ? 'bg-red-800 text-white' : v.idle ? 'bg-amber-200 text-amber-950' : 'bg-emerald-100 text-emerald-950'}`}
                    >
                      {stateOf(v)}
                    </span>
                  </td>
                  <td
                    className={`${cell} text-right tabular-nums max-sm:text-left ${v.waiting > 0 ? 'font-bold' : ''}`}
                    data-label="Por enviar"
                  >
                    {formatCount(v.waiting)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > shown.length && (
        <button type="button" className={`${button} mt-3`} onClick={() => setAll(true)}>
          Ver los {formatCount(rows.length)}
        </button>
      )}
    </section>
  );
}
