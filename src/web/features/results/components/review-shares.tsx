import type { Breakdown } from '#shared/features/results/results';
import { formatCount, formatPercent } from '#shared/platform/format';
import { useResultsBreakdown } from '../api/get-results-breakdown';

/** Validated and reviewed records of the whole breakdown (decision 134): shares of the pending records. */
export function reviewShares(breakdown: Breakdown) {
  let total = 0;
  let validated = 0;
  let reviewed = 0;
  for (const r of breakdown.rows) {
    total += r.total;
    validated += r.validated;
    reviewed += r.reviewed;
  }
  const share = (n: number) => (total > 0 ? (n / total) * 100 : 0);
  return { total, validated, reviewed, validatedShare: share(validated), reviewedShare: share(reviewed) };
}

/**
 * 'Validados 40 % · Revisados 12 %': what arrived (a vote and three photos) and what a person checked
 * (the three photos 'Conforme'), apart, on Resultados and the projector.
 */
export function ReviewShares({
  live,
  pollMs,
  size = 'page',
}: {
  live: boolean;
  pollMs?: number;
  size?: 'page' | 'projector';
}) {
  const breakdown = useResultsBreakdown({ live, ...(pollMs ? { pollMs } : {}) });
  if (!breakdown.data) return null;
  const s = reviewShares(breakdown.data);
  const text = size === 'projector' ? '' : 'text-stone-800';
  return (
    <p className={`flex flex-wrap gap-x-6 gap-y-1 ${text}`} data-testid="cuotas-revision">
      <span data-testid="cuota-validados">
        Validados: <strong className="tabular-nums">{formatPercent(s.validatedShare)}</strong>
        <span className="tabular-nums"> ({formatCount(s.validated)})</span>
      </span>
      <span data-testid="cuota-revisados">
        Revisados: <strong className="tabular-nums">{formatPercent(s.reviewedShare)}</strong>
        <span className="tabular-nums"> ({formatCount(s.reviewed)})</span>
      </span>
    </p>
  );
}
