import { useEffect, useMemo, useRef, useState } from 'react';
import { type BreakdownRow, resultsMessages } from '#shared/features/results/results';
import { formatCount, formatPercent } from '#shared/platform/format';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { resultsDownloads, useResultsBreakdown } from '../api/get-results-breakdown';

type SortKey = 'title' | 'total' | 'voted' | 'validated' | 'percentComplete' | `votes:${string}`;
interface Sort {
  key: SortKey;
  direction: 'ascending' | 'descending';
}

const sortValue = (row: BreakdownRow, key: SortKey): string | number =>
  key.startsWith('votes:') ? (row.votes[key.slice(6)] ?? 0) : row[key as Exclude<SortKey, `votes:${string}`>];

function sortRows(rows: BreakdownRow[], sort: Sort | null): BreakdownRow[] {
  if (!sort) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const order = typeof x === 'string' ? x.localeCompare(String(y), 'es') : x - Number(y);
    return order * sign || a.title.localeCompare(b.title, 'es');
  });
}

const linkButton =
  'inline-flex items-center rounded-md border border-brand px-3 py-2 text-sm font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand';

/** Per municipality: records, voted, validated, percent complete and votes per candidate; sortable. */
export function ResultsBreakdown({ live, pollMs }: { live: boolean; pollMs?: number | undefined }) {
  const breakdown = useResultsBreakdown({ live, ...(pollMs ? { pollMs } : {}) });
  const [sort, setSort] = useState<Sort | null>(null);
  const rows = useMemo(() => sortRows(breakdown.data?.rows ?? [], sort), [breakdown.data, sort]);
  const scroll = useScrollHint(rows.length > 0);

  const columns: { key: SortKey; label: string; numeric: boolean }[] = [
    { key: 'title', label: 'Municipio o parroquia', numeric: false },
    { key: 'total', label: 'Trámites', numeric: true },
    { key: 'voted', label: 'Votados', numeric: true },
    { key: 'validated', label: 'Validados', numeric: true },
    { key: 'percentComplete', label: '% completado', numeric: true },
    ...(breakdown.data?.candidates ?? []).map((c) => ({
      key: `votes:${c.code}` as SortKey,
      label: c.code,
      numeric: true,
    })),
  ];

  const toggle = (key: SortKey, numeric: boolean) =>
    setSort((current) =>
      current?.key === key
        ? { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : // Numbers start with the largest: the question is usually "who is furthest along".
          { key, direction: numeric ? 'descending' : 'ascending' },
    );

  const totals = useMemo(() => {
    const all = breakdown.data?.rows ?? [];
    const sum = (pick: (r: BreakdownRow) => number) => all.reduce((n, r) => n + pick(r), 0);
    const total = sum((r) => r.total);
    const validated = sum((r) => r.validated);
    return {
      total,
      voted: sum((r) => r.voted),
      validated,
      percentComplete: total > 0 ? (validated / total) * 100 : 0,
      votes: Object.fromEntries(
        (breakdown.data?.candidates ?? []).map((c) => [c.code, sum((r) => r.votes[c.code] ?? 0)]),
      ),
    };
  }, [breakdown.data]);

  return (
    <section aria-labelledby="avance-titulo" className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="avance-titulo" className="text-xl font-bold">
          {resultsMessages.breakdownTitle}
        </h2>
        <div className="flex flex-wrap gap-2 print:hidden">
          <button
            type="button"
            className={linkButton}
            onClick={() => void breakdown.refetch()}
            disabled={breakdown.isFetching}
          >
            {resultsMessages.refresh}
          </button>
          <a className={linkButton} href={resultsDownloads.breakdown} download>
            {resultsMessages.downloadBreakdown}
          </a>
          <a className={linkButton} href={resultsDownloads.validated} download>
            {resultsMessages.downloadValidated}
          </a>
        </div>
      </div>
      {breakdown.isPending ? (
        <Spinner />
      ) : breakdown.isError && !breakdown.data ? (
        <div className="mt-4">
          <ErrorNotice message={breakdown.error.message} onRetry={() => void breakdown.refetch()} />
        </div>
      ) : rows.length === 0 ? (
        <p className="mt-4 text-stone-600">{resultsMessages.breakdownEmpty}</p>
      ) : (
        <>
          {scroll.overflows && (
            <p className="mt-3 text-sm text-stone-700 print:hidden" data-testid="tabla-desliza">
              {resultsMessages.scrollHint(columns.length)} <span aria-hidden="true">→</span>
            </p>
          )}
          <div className="relative mt-3">
            {/* The sort buttons inside make this scrolling box reachable by keyboard on a phone. */}
            <div
              ref={scroll.ref}
              className="overflow-x-auto rounded-xl border border-stone-200 bg-white print:overflow-visible print:rounded-none print:border-0"
            >
              <table className="w-full min-w-[44rem] border-collapse text-sm print:min-w-0 print:text-xs">
                <thead className="bg-stone-100 text-left">
                  <tr>
                    {columns.map((col) => (
                      <th
                        key={col.key}
                        scope="col"
                        aria-sort={sort?.key === col.key ? sort.direction : undefined}
                        className={`px-3 py-2 font-semibold whitespace-nowrap print:px-1.5 print:whitespace-normal ${col.numeric ? 'text-right' : 'sticky left-0 z-10 bg-stone-100'}`}
                      >
                        <button
                          type="button"
                          onClick={() => toggle(col.key, col.numeric)}
                          className="inline-flex items-center gap-1 rounded hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
                        >
                          {col.label}
                          <span aria-hidden="true" className="text-xs text-stone-500 print:hidden">
                            {sort?.key === col.key ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
                          </span>
                        </button>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.slug} className="border-t border-stone-200">
                      <th
                        scope="row"
                        className="sticky left-0 bg-white px-3 py-2 text-left font-medium whitespace-nowrap print:px-1.5 print:whitespace-normal"
                      >
                        {row.title}
                      </th>
                      <td className="px-3 py-2 text-right tabular-nums">{formatCount(row.total)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatCount(row.voted)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatCount(row.validated)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatPercent(row.percentComplete)}</td>
                      {(breakdown.data?.candidates ?? []).map((c) => (
                        <td key={c.code} className="px-3 py-2 text-right tabular-nums">
                          {formatCount(row.votes[c.code] ?? 0)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
                <tfoot className="border-t-2 border-stone-300 bg-stone-50 font-bold">
                  <tr>
                    <th scope="row" className="sticky left-0 bg-stone-50 px-3 py-2 text-left">
                      Total
                    </th>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCount(totals.total)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCount(totals.voted)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCount(totals.validated)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatPercent(totals.percentComplete)}</td>
                    {(breakdown.data?.candidates ?? []).map((c) => (
                      <td key={c.code} className="px-3 py-2 text-right tabular-nums">
                        {formatCount(totals.votes[c.code] ?? 0)}
                      </td>
                    ))}
                  </tr>
                </tfoot>
              </table>
            </div>
            {/* More columns to the right: a shadow on the edge says so. */}
            {scroll.moreRight && (
              <div
                aria-hidden="true"
                data-testid="tabla-sombra"
                className="pointer-events-none absolute inset-y-0 right-0 w-12 rounded-r-xl bg-linear-to-l from-stone-900/25 to-transparent print:hidden"
              />
            )}
          </div>
        </>
      )}
    </section>
  );
}

/**
 * Whether a scrolling box is wider than the screen, and whether more of it lies to the right: measured
 * on every scroll and resize. `ref` goes on the box; `active` says it is on screen.
 */
function useScrollHint(active: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState({ overflows: false, moreRight: false });
  useEffect(() => {
    const box = ref.current;
    if (!active || !box) return;
    const measure = () => {
      const overflows = box.scrollWidth > box.clientWidth + 1;
      const moreRight = overflows && box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
      setState((s) => (s.overflows === overflows && s.moreRight === moreRight ? s : { overflows, moreRight }));
    };
    measure();
    box.addEventListener('scroll', measure, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    resize?.observe(box);
    return () => {
      box.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, [active]);
  return { ref, ...state };
}
