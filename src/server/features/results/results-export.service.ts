import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { auditedCsvExport, type CsvExport, cursorPages } from '#server/platform/export/csv-export';
import { csvDateTime, csvPercent, csvZoneLabel } from '#server/platform/lib/csv';
import type { Actor } from '#server/platform/session/identity';
import type { Breakdown } from '#shared/features/results/results';
import { createResultsRepository } from './results.repository';
import { RESULTS_DEPARTMENT } from './results.service';

const PHOTO_NAMES = { gobernador: 'Gobernador', an: 'AN', clez: 'CLEZ' } as const;
/** A slot's review in the exports (decision 134): reopened slots say another photo was asked for. */
const REVIEW_STATE: Record<string, string> = {
  conforme: 'Conforme',
  ilegible: 'Ilegible (se pidió otra foto)',
  no_corresponde: 'No corresponde (se pidió otra foto)',
};
const EXPORT_PAGE = 5_000;

/**
 * The results' two CSV files for Excel. Each download leaves its audit row (who took which data, and
 * how many rows), stored before the file is sent (docs/decisions/072, 105).
 */
export function createResultsExports(
  db: Kysely<Database>,
  deps: { now: () => Date; readBreakdown: () => Promise<Breakdown> },
) {
  const repo = createResultsRepository(db);
  const entry = (file: string, details: Record<string, unknown>, actor: Actor, at: Date) => ({
    actorEmail: actor.email,
    action: 'results.download',
    departmentSlug: RESULTS_DEPARTMENT,
    target: file,
    ip: actor.ip,
    details,
    at,
  });

  return {
    /** The progress per municipality, as the breakdown shows it. */
    async breakdownCsv(actor: Actor): Promise<CsvExport> {
      const now = deps.now();
      const breakdown = await deps.readBreakdown();
      const codes = breakdown.candidates.map((c) => c.code);
      return auditedCsvExport(db, {
        audit: entry('breakdown.csv', { rows: breakdown.rows.length }, actor, now),
        name: 'avance-por-municipio',
        at: now,
        header: [
          'Municipio',
          'Trámites',
          'Votados',
          'Validados (voto y 3 fotos)',
          '% completado',
          ...breakdown.candidates.map((c) => `Votos ${c.code} (${c.name})`),
        ],
        pages: [breakdown.rows],
        line: (row) => [
          row.title,
          row.total,
          row.voted,
          row.validated,
          csvPercent(row.percentComplete),
          ...codes.map((code) => row.votes[code] ?? 0),
        ],
      });
    },

    /** Every voted record: person, municipality, candidates, photos present, who and when. */
    async validatedCsv(actor: Actor): Promise<CsvExport> {
      const now = deps.now();
      return auditedCsvExport(db, {
        // Names of people and how they voted: who took them, and how many (decision 081).
        audit: async (trx) =>
          entry(
            'validated.csv',
            { rows: await createResultsRepository(trx).votedRecordsCount(), personalData: ['nombre'] },
            actor,
            now,
          ),
        name: 'tramites-validados',
        at: now,
        header: [
          'ID',
          'Municipio',
          'Comunidad',
          'UBCH',
          'Persona',
          'Candidatos',
          'Fotos presentes',
          'Completo (voto y 3 fotos)',
          'Validado por',
          `Validado el (${csvZoneLabel(now)})`,
          ...(['gobernador', 'an', 'clez'] as const).flatMap((k) => [
            `Revisión ${PHOTO_NAMES[k]}`,
            `${PHOTO_NAMES[k]} revisada por`,
            `${PHOTO_NAMES[k]} revisada el (${csvZoneLabel(now)})`,
          ]),
        ],
        // Page by page as the client reads: half a million rows never sit in memory at once.
        pages: cursorPages({
          first: 0,
          size: EXPORT_PAGE,
          read: (after, size) => repo.votedRecordsPage(after, size),
          next: (r) => r.id,
        }),
        line: (r) => {
          const photos = (['gobernador', 'an', 'clez'] as const).filter((k) => r[k] === 1).map((k) => PHOTO_NAMES[k]);
          return [
            r.id,
            r.department,
            r.comunidad,
            r.ubch,
            r.nombre,
            r.vote_codes ? r.vote_codes.split(',').join(', ') : 'Ninguno',
            photos.length > 0 ? photos.join(', ') : 'Ninguna',
            r.completed === 1 ? 'Sí' : 'No',
            r.voted_by,
            csvDateTime(r.voted_at),
            ...(['gobernador', 'an', 'clez'] as const).flatMap((k) => {
              const state = r[`${k}_review`];
              if (state === null) return ['Sin revisar', '', ''];
              return [REVIEW_STATE[state] ?? state, r[`${k}_reviewed_by`], csvDateTime(r[`${k}_reviewed_at`])];
            }),
          ];
        },
      });
    },
  };
}
export type ResultsExports = ReturnType<typeof createResultsExports>;
