import { apiErrorSchema } from '#shared/platform/errors';
import {
  isMaskedPhone,
  recordDepartmentSchema,
  recordFieldMessages,
  recordFieldProblem,
  recordFieldsSchema,
  recordsAdminFilterSchema,
} from '#shared/platform/record-fields';
import { z } from '#shared/platform/zod-spanish';

export const RECORDS_ADMIN_PAGE_SIZE = 50;

/** Sentences of the records back office, shared by the API and the screens. */
export const recordsAdminMessages = {
  recordNotFound: 'El registro no existe.',
  noPhone: 'Este registro no tiene teléfono (se borró con los datos personales o nunca lo tuvo).',
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
  /** The record's SMS code (record-code.ts): the search finds a record by it. */
  code: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RecordAdmin = z.infer<typeof recordAdminSchema>;

/**
 * POST /api/admin/records/purge, 'Borrar datos personales' (decision 081): names to initials, phones
 * removed, ballot photos kept or removed. `confirm` is the sentence the admin typed the second time.
 */
export const PURGE_CONFIRMATION = 'BORRAR DATOS PERSONALES';
export const purgeBodySchema = z.object({
  photos: z.enum(['keep', 'remove'], { error: 'Elige si las fotos de boletas se conservan o se borran.' }),
  confirm: z.literal(PURGE_CONFIRMATION, { error: `Escribe ${PURGE_CONFIRMATION} para confirmar.` }),
});
export type PurgeBody = z.input<typeof purgeBodySchema>;
export const purgeResultSchema = z.object({
  records: z.number().int(),
  photoFiles: z.number().int(),
  photoFilesRemoved: z.number().int(),
  /** Copies a storage published under the person's name (Dropbox), and those that could not be withdrawn. */
  sharedLinks: z.number().int(),
  sharedLinksLeft: z.number().int(),
  /** Whether the database's files were rewritten, so that nothing purged stays in their free space. */
  databaseRewritten: z.boolean(),
});
export type PurgeResult = z.infer<typeof purgeResultSchema>;

/** POST /api/admin/records/:id/phone ('Mostrar'): one record's phone, whole; the look is audited. */
export const recordPhoneSchema = z.object({ telefono: z.string() });
export type RecordPhone = z.infer<typeof recordPhoneSchema>;

export const recordsAdminQuerySchema = z.object({
  /** One municipality or parish; without it, every one of them (each record names its own). */
  department: recordDepartmentSchema.optional(),
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
export type RecordsDepartments = z.infer<typeof recordsDepartmentsSchema>;
export type RecordsDepartment = z.infer<typeof recordsDepartmentSchema>;

export const recordBodySchema = recordFieldsSchema.extend({ department: recordDepartmentSchema });
export type RecordBody = z.input<typeof recordBodySchema>;

/**
 * PUT /api/admin/records/:id: as a new record, except that the phone may come back masked as the list
 * showed it ('•••• •• 12 34'), which keeps the stored phone (decision 081).
 */
export const updateRecordBodySchema = recordBodySchema.extend({
  telefono: z
    .string({ error: recordFieldMessages.telefonoRequired })
    .trim()
    .superRefine((value, ctx) => {
      const problem = isMaskedPhone(value) ? null : recordFieldProblem('telefono', value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});

export const recordAdminParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

/** Why a record or its vote is changed: required, kept in the audit log. */
const reasonSchema = z
  .string({ error: recordsAdminMessages.reasonRequired })
  .trim()
  .min(1, recordsAdminMessages.reasonRequired)
  .max(300, recordFieldMessages.tooLong(300));

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
