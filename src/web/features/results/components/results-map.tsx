import { useState } from 'react';
import type { Breakdown, BreakdownRow } from '#shared/features/results/results';
import { dateInTimeZone, formatCount, formatPercent } from '#shared/platform/format';
import { NO_RECORDS, SHARE_STEPS, shareStep } from '#web/platform/charts/tile-colours';
import { type MapTile, TileMap } from '#web/platform/charts/tile-map';
import { Modal } from '#web/platform/ui/modal';

/** Validated over records, or nothing when there are no records: never a 0 % that means "no data". */
const shareOf = (row: BreakdownRow): number | null => (row.total > 0 ? (row.validated / row.total) * 100 : null);

/** A department's square: coloured by its share of records validated; 'sin registros' when it has none. */
export function resultsTile(row: BreakdownRow): MapTile {
  const share = shareOf(row);
  if (share === null) {
    return {
      slug: row.slug,
      title: row.title,
      colour: NO_RECORDS,
      value: 's/r',
      summary: `${row.title}: sin registros.`,
    };
  }
  return {
    slug: row.slug,
    title: row.title,
    colour: shareStep(share),
    // Whole points, rounded down like the colour's step: 39,9 % is written 39 % and drawn in 20 – 40 %.
    value: formatPercent(Math.floor(share), 0),
    summary: `${row.title}: ${formatPercent(share)} validado, ${formatCount(row.validated)} de ${formatCount(row.total)} trámites; ${formatCount(row.voted)} votados.`,
  };
}

export interface ResultsMapProps {
  breakdown: Breakdown;
  size?: 'page' | 'projector';
  /** On the projector, the height its squares may take (a CSS length). */
  projectorHeight?: string | undefined;
}

/**
 * Resultados' map: each municipality and parish by its share of records validated (vote and three
 * photos), from the breakdown the page already follows live. A click opens the department's breakdown.
 */
export function ResultsMap({ breakdown, size = 'page', projectorHeight }: ResultsMapProps) {
  const [open, setOpen] = useState<string | null>(null);
  const row = breakdown.rows.find((r) => r.slug === open);
  const id = size === 'projector' ? 'mapa-proyector' : 'mapa-resultados';
  return (
    <>
      <TileMap
        id={id}
        title="Mapa: trámites validados"
        tiles={breakdown.rows.map(resultsTile)}
        legend={[...SHARE_STEPS, NO_RECORDS]}
        onOpen={size === 'projector' ? undefined : setOpen}
        size={size}
        projectorHeight={projectorHeight}
        fileName={`mapa-validados-${dateInTimeZone(new Date(breakdown.computedAt))}`}
        table={{
          columns: ['Municipio o parroquia', 'Trámites', 'Validados', '% validado', 'Color', 'Revisados', '% revisado'],
          rows: breakdown.rows.map((r) => {
            const share = shareOf(r);
            return {
              slug: r.slug,
              title: r.title,
              cells: [
                formatCount(r.total),
                formatCount(r.validated),
                share === null ? NO_RECORDS.label : formatPercent(share),
                resultsTile(r).colour.label,
                formatCount(r.reviewed),
                r.total > 0 ? formatPercent((r.reviewed / r.total) * 100) : NO_RECORDS.label,
              ],
            };
          }),
        }}
      />
      {row && (
        <Modal open onClose={() => setOpen(null)} title={row.title} testId="desglose-departamento">
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-stone-900">
            <dt className="font-semibold">Trámites</dt>
            <dd className="text-right tabular-nums">{formatCount(row.total)}</dd>
            <dt className="font-semibold">Votados</dt>
            <dd className="text-right tabular-nums">{formatCount(row.voted)}</dd>
            <dt className="font-semibold">Validados (voto y 3 fotos)</dt>
            <dd className="text-right tabular-nums">{formatCount(row.validated)}</dd>
            <dt className="font-semibold">% validado</dt>
            <dd className="text-right tabular-nums">
              {shareOf(row) === null ? NO_RECORDS.label : formatPercent(shareOf(row) ?? 0)}
            </dd>
            <dt className="font-semibold">Revisados (3 fotos conformes)</dt>
            <dd className="text-right tabular-nums">{formatCount(row.reviewed)}</dd>
            <dt className="font-semibold">Fotos recibidas</dt>
            <dd className="text-right tabular-nums">{formatCount(row.photos)}</dd>
            {breakdown.candidates.map((c) => (
              <div key={c.code} className="contents">
                <dt className="font-semibold">
                  Votos {c.code} ({c.name})
                </dt>
                <dd className="text-right tabular-nums">{formatCount(row.votes[c.code] ?? 0)}</dd>
              </div>
            ))}
          </dl>
          <button
            type="button"
            onClick={() => setOpen(null)}
            className="mt-5 w-full rounded-md bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
          >
            Cerrar
          </button>
        </Modal>
      )}
    </>
  );
}
