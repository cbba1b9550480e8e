import { apiErrorSchema } from '#shared/platform/errors';
import { formatCount } from '#shared/platform/format';
import { z } from '#shared/platform/zod-spanish';

/** Limits of the records back office and of the CSV import. */
export const RECORD_LIMITS = { comunidad: 300, nombre: 300, ubch: 100, telefono: 60 } as const;
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 250_000;
/** A physical line longer than this is not a row of this file: the file is refused. */
export const IMPORT_MAX_LINE_CHARS = 64 * 1024;
/** At most this many problems and duplicates travel in a report (the counts are always complete). */
export const IMPORT_REPORT_MAX_ITEMS = 200;
export const RECORDS_ADMIN_PAGE_SIZE = 50;

/** Sentences of the records back office, shared by the API and the screens. */
export const recordsAdminMessages = {
  recordNotFound: 'El registro no existe.',
  departmentRequired: 'Elige el municipio o parroquia.',
  unknownDepartment: 'El municipio o parroquia no existe.',
  nombreRequired: 'Escribe el nombre.',
  telefonoRequired: 'Escribe el teléfono.',
  tooLong: (max: number) => `No puede tener más de ${formatCount(max)} caracteres.`,
  telefonoChars: 'El teléfono solo puede tener números, espacios, +, -, paréntesis y puntos.',
  telefonoDigits: 'El teléfono debe tener entre 7 y 15 dígitos.',
  controlChars: 'Tiene caracteres de control que no se pueden guardar.',
  duplicate: (nombre: string, id: number) =>
    `Ya existe un registro de ${nombre} con ese teléfono en este municipio (registro ${id}).`,
  voided: 'Este registro está anulado: ya no se puede cambiar.',
  votedCannotMove:
    'Este registro ya tiene voto: no puede cambiar de municipio (su voto cuenta en los resultados de su municipio).',
  created: 'Registro agregado.',
  updated: 'Registro actualizado.',
  voidedOk: 'Registro anulado: ya no aparece en las listas.',
  alreadyVoided: 'Este registro ya estaba anulado.',
  reasonRequired: 'Escribe el motivo: queda en el registro de auditoría.',
  voteCorrected: 'Voto corregido: los resultados ya lo reflejan.',
  voteCleared: 'Voto borrado: el trámite vuelve a estar sin votar.',
  notVoted: 'Este registro todavía no tiene voto: lo registra un validador desde su lista.',
  sameVote: 'El voto corregido es igual al actual: no hay nada que cambiar.',
  voidedCannotCorrect: 'Este registro está anulado: restáuralo antes de corregir su voto.',
  voteChanged: 'El voto de este registro cambió mientras lo corregías. Revisa el voto actual y vuelve a intentarlo.',
  voteRevisionRequired: 'Falta la versión del voto que corriges. Vuelve a abrir el registro e intenta de nuevo.',
  notVoided: 'Este registro no está anulado.',
  restoredOk: 'Registro restaurado: vuelve a la lista de validación.',
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

// --- records ------------------------------------------------------------------------------------------

export const recordStatusSchema = z.enum(['pendiente', 'anulado']);
export type RecordStatusValue = z.infer<typeof recordStatusSchema>;

export const recordAdminSchema = z.object({
  id: z.number().int(),
  departmentSlug: z.string(),
  departmentTitle: z.string(),
  comunidad: z.string(),
  nombre: z.string(),
  ubch: z.string(),
  telefono: z.string(),
  status: recordStatusSchema,
  votedAt: z.string().nullable(),
  /** Candidate codes of the vote; empty before the vote and after a vote for nobody. */
  votes: z.array(z.string()),
  /** How many of the three ballot photos it has. */
  photos: z.number().int(),
  validated: z.boolean(),
  /** The e-mail of who voted it (kept through corrections); null without a vote. */
  votedBy: z.string().nullable(),
  /** The e-mail of who validated it (the vote or the photo that completed it); null until validated. */
  validatedBy: z.string().nullable(),
  /** False only for a record voided with "its vote no longer counts": its vote is out of the results. */
  voteCounts: z.boolean(),
  /** How many times the vote was written (0: never voted); a correction names the one it corrects. */
  voteRevision: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RecordAdmin = z.infer<typeof recordAdminSchema>;

const slugSchema = z
  .string({ error: recordsAdminMessages.departmentRequired })
  .trim()
  .min(1, recordsAdminMessages.departmentRequired)
  .max(100, recordsAdminMessages.unknownDepartment)
  .regex(/^[a-z0-9-]+$/, recordsAdminMessages.unknownDepartment);

export const recordsAdminFilterSchema = z.enum(['pendiente', 'anulado', 'todos']);
export type RecordsAdminFilter = z.infer<typeof recordsAdminFilterSchema>;

export const recordsAdminQuerySchema = z.object({
  /** One municipality or parish; without it, every one of them (each record names its own). */
  department: slugSchema.optional(),
  /** Search in name, phone, community and UBCH (accents and case do not matter). */
  q: z.string().trim().max(100).optional(),
  status: recordsAdminFilterSchema.default('pendiente'),
  /** Keyset cursor: the last id of the previous page. */
  after: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(RECORDS_ADMIN_PAGE_SIZE),
});
export type RecordsAdminQuery = z.input<typeof recordsAdminQuerySchema>;

export const recordsAdminPageSchema = z.object({
  items: z.array(recordAdminSchema),
  nextCursor: z.number().int().nullable(),
});
export type RecordsAdminPage = z.infer<typeof recordsAdminPageSchema>;

export const recordsExportQuerySchema = z.object({
  department: slugSchema,
  status: recordsAdminFilterSchema.default('todos'),
});

export const recordsDepartmentSchema = z.object({
  slug: z.string(),
  title: z.string(),
  /** Pending records (the validators' list). */
  total: z.number().int(),
  voted: z.number().int(),
  validated: z.number().int(),
  voided: z.number().int(),
});
export const recordsDepartmentsSchema = z.object({ items: z.array(recordsDepartmentSchema) });
export type RecordsDepartment = z.infer<typeof recordsDepartmentSchema>;

/** Characters a phone may have besides digits. */
const PHONE_CHARS = /^[\d\s+().\-/]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: this is the check for them
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export type RecordField = keyof typeof RECORD_LIMITS;

function countDigits(value: string): number {
  let digits = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  return digits;
}

/**
 * What is wrong with one field of a record (already trimmed), or null. The rules of the form and of
 * every row of an import; written without allocating, as an import checks them 100,000 times.
 */
export function recordFieldProblem(field: RecordField, value: string): string | null {
  const max = RECORD_LIMITS[field];
  if (field === 'nombre' && value.length === 0) return recordsAdminMessages.nombreRequired;
  if (field === 'telefono') {
    if (value.length === 0) return recordsAdminMessages.telefonoRequired;
    if (value.length > max) return recordsAdminMessages.tooLong(max);
    if (!PHONE_CHARS.test(value)) return recordsAdminMessages.telefonoChars;
    const digits = countDigits(value);
    return digits >= 7 && digits <= 15 ? null : recordsAdminMessages.telefonoDigits;
  }
  if (value.length > max) return recordsAdminMessages.tooLong(max);
  if (CONTROL_CHARS.test(value)) return recordsAdminMessages.controlChars;
  return null;
}

const fieldSchema = (field: RecordField, requiredMessage?: string) =>
  z
    .string(requiredMessage ? { error: requiredMessage } : undefined)
    .trim()
    .superRefine((value, ctx) => {
      const problem = recordFieldProblem(field, value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** The fields of a record, as the form gives them (an import checks each row with recordFieldProblem). */
export const recordFieldsSchema = z.object({
  comunidad: fieldSchema('comunidad').default(''),
  nombre: fieldSchema('nombre', recordsAdminMessages.nombreRequired),
  ubch: fieldSchema('ubch').default(''),
  telefono: fieldSchema('telefono', recordsAdminMessages.telefonoRequired),
});
export type RecordFields = z.infer<typeof recordFieldsSchema>;

export const recordBodySchema = recordFieldsSchema.extend({ department: slugSchema });
export type RecordBody = z.input<typeof recordBodySchema>;

export const recordAdminParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

/** Why a record or its vote is changed: required, kept in the audit log. */
const reasonSchema = z
  .string({ error: recordsAdminMessages.reasonRequired })
  .trim()
  .min(1, recordsAdminMessages.reasonRequired)
  .max(300, recordsAdminMessages.tooLong(300));

export const voidRecordBodySchema = z.object({
  reason: reasonSchema,
  /** Whether the record's vote stays in the results (default: it no longer counts). */
  voteCounts: z.boolean().default(false),
});
export type VoidRecordBody = z.input<typeof voidRecordBodySchema>;

export const restoreRecordBodySchema = z.object({ reason: reasonSchema });
export type RestoreRecordBody = z.input<typeof restoreRecordBodySchema>;

/** An admin's correction of a record's vote: other candidates (none is a vote for nobody), or no vote. */
export const correctVoteBodySchema = z.object({
  /** The candidate codes the vote should have; null clears the vote (the record is unvoted again). */
  candidates: z
    .array(z.string().trim().toUpperCase().min(1).max(10))
    .max(10)
    .refine((codes) => new Set(codes).size === codes.length, 'Un candidato aparece más de una vez.')
    .nullable(),
  reason: reasonSchema,
  /**
   * The `voteRevision` of the vote as the admin saw it: when the vote was written again meanwhile (another
   * correction, a clear and a new vote), the correction is refused with 409 instead of silently winning.
   */
  voteRevision: z
    .number({ error: recordsAdminMessages.voteRevisionRequired })
    .int(recordsAdminMessages.voteRevisionRequired)
    .min(0, recordsAdminMessages.voteRevisionRequired)
    .max(2_147_483_647, recordsAdminMessages.voteRevisionRequired),
});
export type CorrectVoteBody = z.input<typeof correctVoteBodySchema>;

/** A refused correction: the message and, when the vote changed meanwhile, the record as it is now. */
export const voteCorrectionConflictSchema = apiErrorSchema.extend({ record: recordAdminSchema.optional() });
export type VoteCorrectionConflict = z.infer<typeof voteCorrectionConflictSchema>;

export const recordResultSchema = z.object({ message: z.string(), record: recordAdminSchema });
export type RecordResult = z.infer<typeof recordResultSchema>;

// --- import -------------------------------------------------------------------------------------------

export const importModeSchema = z.enum(['simulacion', 'importar']);
export type ImportMode = z.infer<typeof importModeSchema>;

export const importQuerySchema = z.object({
  /** 'simulacion' (the dry run) reads and checks everything and changes nothing. */
  mode: importModeSchema.default('simulacion'),
  /** Municipality of the rows when the file has no department column. */
  department: slugSchema.optional(),
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
