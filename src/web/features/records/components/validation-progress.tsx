import type { RecordsSummary } from '#shared/features/records/records';
import { formatCount, formatPercent } from '#shared/platform/format';

/** "N de M validados" and a bar; votes cast so far underneath. */
export function ValidationProgress({ summary }: { summary: RecordsSummary }) {
  // The same share, written the same way, as on Departamentos: '50,00 %'.
  const percent = summary.total > 0 ? (summary.validated / summary.total) * 100 : 0;
  const label = `${formatCount(summary.validated)} de ${formatCount(summary.total)} validados`;
  return (
    <section aria-label="Progreso" className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <div className="flex items-baseline justify-between gap-2">
        <p className="text-lg font-bold text-stone-900" aria-live="polite">
          {label}
        </p>
        <p className="text-sm font-semibold text-stone-700 tabular-nums">{formatPercent(percent)}</p>
      </div>
      <div
        className="mt-2 h-3 w-full overflow-hidden rounded-full bg-stone-200"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={summary.total}
        aria-valuenow={summary.validated}
      >
        <div className="h-full rounded-full bg-emerald-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-2 text-sm text-stone-700">
        {formatCount(summary.voted)} {summary.voted === 1 ? 'votado' : 'votados'} · validado = voto y tres fotos
      </p>
    </section>
  );
}
