import { formatCount } from '#shared/platform/format';
import { recordDepartmentSchema, recordsAdminFilterSchema } from '#shared/platform/record-fields';
import { z } from '#shared/platform/zod-spanish';

/** Limits of the CSV import. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 250_000;
/** A physical line longer than this is not a row of this file: the file is refused. */
export const IMPORT_MAX_LINE_CHARS = 64 * 1024;
/** At most this many problems and duplicates travel in a report (the counts are always complete). */
export const IMPORT_REPORT_MAX_ITEMS = 200;

/** Sentences of the CSV import and export, shared by the API and the screens. */
export const recordsImportMessages = {
  importDone: (n: number) => (n === 1 ? 'Se importó 1 registro.' : `Se importaron ${formatCount(n)} registros.`),
  dryRunDone: 'Revisión terminada: todavía no se importó nada.',
  importBlockedByErrors:
    'No se importó nada: hay filas con errores. Corrígelas y vuelve a intentarlo, o importa solo las filas válidas.',
  importBlockedByFile: 'No se importó nada: el archivo tiene problemas que impiden leerlo.',
  nothingToImport: 'No hay filas nuevas que importar.',
  missingFile: 'Adjunta el archivo CSV.',
  fileTooLarge: `El archivo supera el máximo de ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Divídelo en partes más pequeñas.`,
  uploadAborted: 'La subida del archivo se interrumpió. Intenta de nuevo.',
} as const;

export const recordsExportQuerySchema = z.object({
  department: recordDepartmentSchema,
  status: recordsAdminFilterSchema.default('todos'),
});

// --- import -------------------------------------------------------------------------------------------

export const importModeSchema = z.enum(['simulacion', 'importar']);
export type ImportMode = z.infer<typeof importModeSchema>;

export const importQuerySchema = z.object({
  /** 'simulacion' (the dry run) reads and checks everything and changes nothing. */
  mode: importModeSchema.default('simulacion'),
  /** Municipality of the rows when the file has no department column. */
  department: recordDepartmentSchema.optional(),
  /** Import the valid rows even if others have errors (they are left out and listed). */
  omitInvalid: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export type ImportQuery = z.input<typeof importQuerySchema>;

export const importProblemSchema = z.object({
  /** Line of the file (the header is line 1); null for the file as a whole. */
  line: z.number().int().nullable(),
  /** Column as the file names it; null for the whole row. */
  column: z.string().nullable(),
  reason: z.string(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

export const importDuplicateSchema = z.object({
  line: z.number().int(),
  nombre: z.string(),
  telefono: z.string(),
  department: z.string(),
  /** The earlier line of the file it repeats, or null. */
  sameAsLine: z.number().int().nullable(),
  /** The record already in the database it repeats, or null. */
  sameAsRecord: z.number().int().nullable(),
});
export type ImportDuplicate = z.infer<typeof importDuplicateSchema>;

export const importReportSchema = z.object({
  mode: importModeSchema,
  /** True once the rows are in the database (one transaction: all of them or none). */
  applied: z.boolean(),
  fileName: z.string(),
  bytes: z.number().int(),
  encoding: z.enum(['utf-8', 'utf-8-bom', 'latin-1']).nullable(),
  separator: z.enum([',', ';', '\t']).nullable(),
  /** How each field was found in the header, e.g. { nombre: 'Nombre', department: 'rephrase' }. */
  columns: z.record(z.string(), z.string()),
  /** Data rows read (not counting the header or blank lines at the end). */
  rows: z.number().int(),
  /** New rows: imported, or to be imported. */
  valid: z.number().int(),
  duplicatesInFile: z.number().int(),
  duplicatesInDatabase: z.number().int(),
  /** Rows with at least one error. */
  invalid: z.number().int(),
  /** What stops the file from being read at all (encoding, quotes, header, blank lines, a huge line). */
  fileProblems: z.array(importProblemSchema),
  /** The first problems of rows, by line. */
  rowProblems: z.array(importProblemSchema),
  rowProblemsTotal: z.number().int(),
  duplicates: z.array(importDuplicateSchema),
  /** New rows per municipality. */
  byDepartment: z.array(z.object({ slug: z.string(), title: z.string(), rows: z.number().int() })),
  durationMs: z.number().int(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const importResultSchema = z.object({ message: z.string(), report: importReportSchema });
export type ImportResult = z.infer<typeof importResultSchema>;

/**
 * What the server is doing with the file, with the bytes of it read so far: a dry run checks
 * ('revisando'); an import checks and saves in the same reading ('guardando').
 */
export const importPhaseSchema = z.enum(['revisando', 'guardando']);
export type ImportPhase = z.infer<typeof importPhaseSchema>;

/**
 * With `Accept: application/x-ndjson`, the import answers one JSON object per line: progress while the
 * server checks and saves, then the result with the status the plain answer would have had.
 */
export const importEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('progress'),
    phase: importPhaseSchema,
    /** Rows (or bytes while checking) done and expected. */
    done: z.number().int(),
    total: z.number().int(),
  }),
  z.object({ type: z.literal('result'), status: z.number().int(), body: importResultSchema }),
  z.object({ type: z.literal('error'), status: z.number().int(), message: z.string() }),
]);
export type ImportEvent = z.infer<typeof importEventSchema>;

/** The export, as the OpenAPI document describes it. */
export const recordsCsvSchema = z
  .string()
  .describe(
    'Archivo CSV (UTF-8 con BOM, separado por punto y coma): Comunidades, Nombre, UBCH, Telefono, Departamento, Estado, Votos, Votado el (hora de Caracas), ID',
  );
