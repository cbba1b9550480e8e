import { atTime, countOf } from '#shared/platform/format';
import { z } from '#shared/platform/zod-spanish';

/** Sentences of the Resultados page and its downloads, shared by the API and the web. */
export const resultsMessages = {
  title: 'RESULTADOS POSTULACIONES',
  live: 'En vivo',
  connecting: 'Conectando…',
  polling: 'Sin conexión en vivo: se actualiza cada 5 segundos',
  updatedAt: (time: string) => `Actualizado ${atTime(time)}`,
  denominator: (count: string) => `Porcentajes sobre ${count} electores`,
  ballots: (count: number) => countOf(count, 'trámite votado', 'trámites votados'),
  votes: (count: number) => countOf(count, 'voto', 'votos'),
  projectorEnter: 'Modo proyector',
  projectorLeave: 'Salir del modo proyector',
  fullscreen: 'Pantalla completa',
  breakdownTitle: 'Avance por municipio',
  breakdownEmpty: 'No hay municipios para mostrar.',
  downloadBreakdown: 'Descargar tabla (CSV)',
  downloadValidated: 'Descargar trámites validados (CSV)',
  refresh: 'Actualizar',
  /** The printed page's header: campaign, page, and when it was printed. */
  printedTitle: (campaign: string) => `${campaign} · Resultados`,
  printedAt: (day: string, time: string) => `Impreso el ${day} ${atTime(time)} (hora de Caracas)`,
  print: 'Imprimir',
  scrollHint: (columns: number) =>
    `La tabla tiene ${columns} columnas: deslízala hacia la izquierda para ver las demás.`,
  streamOnly: 'Esta dirección solo envía un flujo de eventos (Accept: text/event-stream).',
} as const;

/** Name of the server-sent event that carries new totals, and of the keep-alive event. */
export const RESULTS_EVENT = 'resultados';
export const RESULTS_PING_EVENT = 'ping';
/**
 * The events that carry the map's figures (the breakdown) and the day's timeline: whole when a stream
 * opens, then only what changed (decision 087), so no screen asks for them again on each vote.
 */
export const RESULTS_BREAKDOWN_EVENT = 'avance';
export const RESULTS_TIMELINE_EVENT = 'linea';
/** The server sends a ping at least this often; a stream silent for much longer is dead. */
export const RESULTS_HEARTBEAT_MS = 15_000;

export const candidateResultSchema = z.object({
  code: z.string(),
  name: z.string(),
  colour: z.string(),
  photoUrl: z.string(),
  /** Records whose vote includes this candidate ("FA,LC" counts once for each). */
  votes: z.number().int().nonnegative(),
  /** votes / denominator × 100, unrounded; the page shows two decimals. */
  percent: z.number().nonnegative(),
});
export type CandidateResult = z.infer<typeof candidateResultSchema>;

export const resultsSchema = z.object({
  /** The three candidates, in the ballot's order. */
  candidates: z.array(candidateResultSchema),
  /** The fixed number percentages are taken over (setting `results_denominator`, 5373 by default). */
  denominator: z.number().positive(),
  /** Records voted so far, including votes for no candidate. */
  ballots: z.number().int().nonnegative(),
  /** When the server read these totals (ISO 8601). */
  computedAt: z.string(),
});
export type Results = z.infer<typeof resultsSchema>;

/** The percentage of the spec: votes over the fixed denominator, times 100. */
export function resultPercent(votes: number, denominator: number): number {
  return denominator > 0 ? (votes / denominator) * 100 : 0;
}

export const breakdownRowSchema = z.object({
  slug: z.string(),
  title: z.string(),
  /** Pending records of the municipality (the validators' list, finished or not). */
  total: z.number().int().nonnegative(),
  voted: z.number().int().nonnegative(),
  /** Voted and with all three photos. */
  validated: z.number().int().nonnegative(),
  /** validated / total × 100; 0 when there are no records. */
  percentComplete: z.number().nonnegative(),
  /** Validated and its three photos reviewed 'Conforme' (decision 134). */
  reviewed: z.number().int().nonnegative(),
  /** Votes per candidate code. */
  votes: z.record(z.string(), z.number().int().nonnegative()),
  /** Ballot photos received for its records (replacements included). */
  photos: z.number().int().nonnegative(),
});
export type BreakdownRow = z.infer<typeof breakdownRowSchema>;

export const breakdownSchema = z.object({
  candidates: z.array(z.object({ code: z.string(), name: z.string(), colour: z.string() })),
  rows: z.array(breakdownRowSchema),
  computedAt: z.string(),
});
export type Breakdown = z.infer<typeof breakdownSchema>;

/** The body of the two CSV downloads, as the OpenAPI document describes it. */
export const csvFileSchema = z.string().describe('Archivo CSV (UTF-8 con BOM, separado por punto y coma)');

/** The event stream, as the OpenAPI document describes it. */
export const resultsStreamSchema = z
  .string()
  .describe(
    `text/event-stream: un evento "${RESULTS_EVENT}" con los totales (el mismo cuerpo que GET /api/results) al conectar y tras cada cambio; "${RESULTS_BREAKDOWN_EVENT}" con el avance por municipio y "${RESULTS_TIMELINE_EVENT}" con la línea de tiempo, completos al conectar ("whole": true) y luego solo las filas y cuartos de hora que cambiaron; y "${RESULTS_PING_EVENT}" cada ${RESULTS_HEARTBEAT_MS / 1000} s`,
  );

/** The timeline's step: votes are counted per quarter of an hour. */
export const TIMELINE_STEP_MINUTES = 15;

const candidateVotesSchema = z.record(z.string(), z.number().int().nonnegative());

export const timelineBucketSchema = z.object({
  /** When the quarter of an hour begins (ISO 8601). */
  at: z.string(),
  /** Votes per candidate code cast in it. */
  votes: candidateVotesSchema,
  /** Votes per candidate code up to its end, the day before included (what the cards show by then). */
  running: candidateVotesSchema,
});
export type TimelineBucket = z.infer<typeof timelineBucketSchema>;

/**
 * The day's votes (America/Caracas), quarter of an hour by quarter of an hour, from the first one of the
 * day up to now, and the running total of each candidate against the denominator.
 */
export const timelineSchema = z.object({
  candidates: z.array(z.object({ code: z.string(), name: z.string(), colour: z.string() })),
  denominator: z.number().positive(),
  /** The day shown, YYYY-MM-DD in America/Caracas, and when it began (ISO 8601). */
  day: z.string(),
  dayStartsAt: z.string(),
  /** Votes per candidate cast before the day began: where the running totals start. */
  before: candidateVotesSchema,
  buckets: z.array(timelineBucketSchema),
  /** When the day closed (ISO 8601), while it is closed and the close falls on the day shown. */
  closedAt: z.string().nullable(),
  computedAt: z.string(),
});
export type Timeline = z.infer<typeof timelineSchema>;

/**
 * The breakdown on the live stream: whole (every row) when the stream opens or the departments or
 * candidates changed, otherwise only the rows that changed since the previous event.
 */
export const breakdownChangeSchema = breakdownSchema.extend({ whole: z.boolean() });
export type BreakdownChange = z.infer<typeof breakdownChangeSchema>;

/**
 * The timeline on the live stream: whole when the stream opens or its day or candidates changed,
 * otherwise every field as it is now but only the quarters that are new or changed.
 */
export const timelineChangeSchema = timelineSchema.extend({ whole: z.boolean() });
export type TimelineChange = z.infer<typeof timelineChangeSchema>;

/** The breakdown a screen keeps, with one change of the stream applied; undefined until a whole one came. */
export function applyBreakdownChange(kept: Breakdown | undefined, change: BreakdownChange): Breakdown | undefined {
  const { whole, ...next } = change;
  if (whole) return next;
  if (!kept) return undefined;
  const changed = new Map(next.rows.map((row) => [row.slug, row]));
  return { ...next, rows: kept.rows.map((row) => changed.get(row.slug) ?? row) };
}

/** The timeline a screen keeps, with one change of the stream applied; undefined until a whole one came. */
export function applyTimelineChange(kept: Timeline | undefined, change: TimelineChange): Timeline | undefined {
  const { whole, ...next } = change;
  if (whole) return next;
  if (!kept || kept.day !== next.day) return undefined;
  const buckets = new Map(kept.buckets.map((b) => [b.at, b]));
  for (const b of next.buckets) buckets.set(b.at, b);
  return { ...next, buckets: [...buckets.values()].sort((a, b) => a.at.localeCompare(b.at)) };
}
