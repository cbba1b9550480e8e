import { lazy, Suspense, useMemo, useState } from 'react';
import { TIMELINE_STEP_MINUTES, type Timeline } from '#shared/features/results/results';
import { dateInTimeZone, formatCount, formatDecimal, formatPercent, formatTime } from '#shared/platform/format';
import { downloadCsv } from '#web/platform/charts/download';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { useResultsTimeline } from '../api/get-results-timeline';

// uPlot comes with the chart, in a chunk of its own: only these staff pages ever load it.
const LineChart = lazy(() => import('#web/platform/charts/line-chart'));

const button =
  'rounded-md border border-stone-400 bg-white px-3 py-1.5 text-sm font-semibold text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-stone-900';

const STEP_MS = TIMELINE_STEP_MINUTES * 60_000;
const quarter = (iso: string) => formatTime(new Date(iso));
const share = (votes: number, denominator: number) => (votes / denominator) * 100;

/** The close's mark ('Cierre 6:00 p. m.'), while the day is closed. */
export const closeLabel = (timeline: Timeline): string | null =>
  timeline.closedAt ? `Cierre ${formatTime(new Date(timeline.closedAt))}` : null;

/**
 * The table's (and the CSV's) columns: the quarter, then per candidate its votes in it, the running total
 * and its share; and, while the day is closed, the close's row where it falls (before the first quarter
 * that begins at or after it).
 */
export function timelineRows(timeline: Timeline): { head: string[]; rows: string[][]; close: number | null } {
  const head = [
    'Cuarto de hora (Caracas)',
    ...timeline.candidates.flatMap((c) => [
      `${c.code} en el cuarto`,
      `${c.code} acumulado`,
      `${c.code} % sobre ${formatCount(timeline.denominator)}`,
    ]),
  ];
  const rows = timeline.buckets.map((b) => [
    quarter(b.at),
    ...timeline.candidates.flatMap((c) => [
      formatCount(b.votes[c.code] ?? 0),
      formatCount(b.running[c.code] ?? 0),
      formatPercent(share(b.running[c.code] ?? 0, timeline.denominator)),
    ]),
  ]);
  const label = closeLabel(timeline);
  if (!label || !timeline.closedAt) return { head, rows, close: null };
  const closedAt = new Date(timeline.closedAt).getTime();
  const after = timeline.buckets.findIndex((b) => new Date(b.at).getTime() >= closedAt);
  const close = after === -1 ? rows.length : after;
  rows.splice(close, 0, [label, ...head.slice(1).map((_, i) => (i === 0 ? 'Cierre de la jornada' : ''))]);
  return { head, rows, close };
}

export interface ResultsTimelineProps {
  live: boolean;
  pollMs?: number | undefined;
  size?: 'page' | 'projector';
}

/**
 * The day's timeline: votes per quarter of an hour and each candidate's running total against the
 * denominator (the cards' percentage, over the day), each chart with the table of its figures under it.
 */
export function ResultsTimeline({ live, pollMs, size = 'page' }: ResultsTimelineProps) {
  const timeline = useResultsTimeline({ live, pollMs });
  const data = timeline.data;
  const projector = size === 'projector';
  const chart = useMemo(() => {
    if (!data) return null;
    // The lines start a quarter before the first vote, where nothing was cast yet and the totals were
    // the day before's: a first quarter alone is a line, not a dot.
    const start = (new Date(data.buckets[0]?.at ?? data.dayStartsAt).getTime() - STEP_MS) / 1000;
    const x = [start, ...data.buckets.map((b) => new Date(b.at).getTime() / 1000)];
    const perQuarter = data.candidates.map((c) => ({
      label: `${c.code} (${c.name})`,
      colour: c.colour,
      values: [0, ...data.buckets.map((b) => b.votes[c.code] ?? 0)],
    }));
    const running = data.candidates.map((c) => ({
      label: `${c.code} (${c.name})`,
      colour: c.colour,
      values: [
        share(data.before[c.code] ?? 0, data.denominator),
        ...data.buckets.map((b) => share(b.running[c.code] ?? 0, data.denominator)),
      ],
    }));
    const label = closeLabel(data);
    const marks = label && data.closedAt ? [{ at: new Date(data.closedAt).getTime() / 1000, label }] : [];
    return { x, perQuarter, running, marks };
  }, [data]);

  const titleClass = projector ? 'text-[clamp(1.2rem,1.8vw,2.5rem)] font-bold' : 'text-xl font-bold';
  const placeholder = <div style={{ height: projector ? '30vh' : 260 }} aria-hidden="true" />;
  const runningTitle = data ? `Total acumulado sobre ${formatCount(data.denominator)} electores` : 'Total acumulado';
  const close = data ? closeLabel(data) : null;
  const closeText = close ? `; ${close.toLowerCase()}` : '';

  return (
    <section aria-labelledby={`${size}-linea-titulo`} className="min-w-0" data-testid={`linea-${size}`}>
      <h2 id={`${size}-linea-titulo`} className={titleClass}>
        Línea de tiempo de hoy
      </h2>
      {timeline.isPending ? (
        <Spinner />
      ) : !data || !chart ? (
        <ErrorNotice message={timeline.error?.message ?? ''} onRetry={() => void timeline.refetch()} />
      ) : data.buckets.length === 0 ? (
        <p className="mt-3 text-stone-700">Todavía no hay votos hoy.</p>
      ) : (
        <div className={projector ? 'mt-2' : 'mt-3 grid gap-6 lg:grid-cols-2'}>
          {!projector && (
            <div className="min-w-0">
              <h3 className="font-semibold text-stone-900">Votos por cuarto de hora</h3>
              <Suspense fallback={placeholder}>
                <LineChart
                  label={`Votos por cuarto de hora desde las ${quarter(data.buckets[0]?.at ?? data.dayStartsAt)}${closeText}: la tabla de la línea de tiempo tiene las cifras.`}
                  title="Votos por cuarto de hora"
                  x={chart.x}
                  series={chart.perQuarter}
                  yFormat={(v) => formatCount(v)}
                  marks={chart.marks}
                  stepped
                  height={260}
                  fileName={`votos-por-cuarto-de-hora-${data.day}`}
                />
              </Suspense>
            </div>
          )}
          <div className="min-w-0">
            <h3 className={projector ? 'sr-only' : 'font-semibold text-stone-900'}>{runningTitle}</h3>
            <Suspense fallback={placeholder}>
              <LineChart
                label={`${runningTitle}, ${data.candidates
                  .map(
                    (c) =>
                      `${c.code} ${formatPercent(share(data.buckets.at(-1)?.running[c.code] ?? 0, data.denominator))}`,
                  )
                  .join(', ')}${closeText}`}
                title={runningTitle}
                x={chart.x}
                series={chart.running}
                yFormat={(v) => `${formatDecimal(v, v < 10 ? 1 : 0)} %`}
                marks={chart.marks}
                height={projector ? Math.round(window.innerHeight * 0.55) : 260}
                fileName={`total-acumulado-${data.day}`}
                large={projector}
              />
            </Suspense>
          </div>
        </div>
      )}
      {data && data.buckets.length > 0 && !projector && <TimelineTable timeline={data} />}
    </section>
  );
}

function TimelineTable({ timeline }: { timeline: Timeline }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="mt-3 rounded-lg border border-stone-200 bg-white"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="cursor-pointer px-3 py-2 font-semibold text-stone-900">Tabla de la línea de tiempo</summary>
      {/* Drawn once opened, like the map's table. */}
      {open && <TimelineFigures timeline={timeline} />}
    </details>
  );
}

function TimelineFigures({ timeline }: { timeline: Timeline }) {
  const { head, rows, close } = timelineRows(timeline);
  return (
    <>
      <div className="px-3 pb-3">
        <button
          type="button"
          className={`${button} mt-1`}
          onClick={() =>
            downloadCsv(`linea-de-tiempo-${dateInTimeZone(new Date(timeline.computedAt))}.csv`, [head, ...rows])
          }
        >
          Descargar CSV
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <div className="max-h-96 overflow-auto" tabIndex={0}>
        <table className="w-full border-collapse text-sm" data-testid="tabla-linea">
          <caption className="sr-only">Votos por cuarto de hora y total acumulado de cada candidato</caption>
          <thead className="sticky top-0 bg-stone-100 text-left">
            <tr>
              {head.map((h, i) => (
                <th key={h} scope="col" className={`px-3 py-2 whitespace-nowrap ${i > 0 ? 'text-right' : ''}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) =>
              index === close ? (
                <tr key="cierre" className="border-t-2 border-stone-900 bg-stone-100" data-testid="fila-cierre">
                  <th scope="row" className="px-3 py-1.5 text-left font-bold whitespace-nowrap">
                    {row[0]}
                  </th>
                  <td colSpan={head.length - 1} className="px-3 py-1.5 font-semibold">
                    {row[1]}
                  </td>
                </tr>
              ) : (
                <tr key={row[0]} className="border-t border-stone-200">
                  <th scope="row" className="px-3 py-1.5 text-left font-medium whitespace-nowrap">
                    {row[0]}
                  </th>
                  {row.slice(1).map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
                    <td key={i} className="px-3 py-1.5 text-right tabular-nums">
                      {cell}
                    </td>
                  ))}
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
