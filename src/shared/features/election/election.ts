import { atClock, countOf, formatTime, untilClock } from '#shared/platform/format';
import { z } from '#shared/platform/zod-spanish';
import { dayMessages, ELECTION_PHASE_LABELS, ELECTION_PHASES, type ElectionPhase } from './election-day';

/**
 * The election day's phases (docs/decisions/078), in the order the day goes through them. Stored as
 * these codes; people read the labels.
 */
export const electionPhaseSchema = z.enum(ELECTION_PHASES);
export type { ElectionPhase };

// The phases, their labels and the day's sentences live apart, without zod, for the navbar on every staff page.
export { ELECTION_PHASE_LABELS, ELECTION_PHASES };

/** Hours after the close during which an item a phone reported before it is still accepted. */
export const DEFAULT_GRACE_HOURS = 12;
export const GRACE_HOURS_BOUNDS = { min: 0, max: 72 } as const;

/** The writes the phase decides on. */
export type ElectionWrite = 'vote' | 'photo' | 'correction' | 'void' | 'import';

export const electionMessages = {
  preparing: 'La jornada está en preparación: todavía no se reciben votos ni fotos.',
  /** 'La jornada cerró a las 6:00 p. m.', the time as the app writes every time (its 'p. m.' ends the sentence). */
  closedAt: dayMessages.closedAt,
  closedForAdmins: (closedAt: string) =>
    `La jornada cerró ${atClock(new Date(closedAt))} Para cambiar registros, reábrela con un motivo.`,
  drillNoAdminChanges: 'Durante el simulacro no se corrigen, anulan ni importan registros.',
  drillAccountsOnlyInDrill: 'Las cuentas de ensayo solo se crean durante el simulacro.',
  drillAccountsUnknownDepartment: (slug: string) => `No existe el municipio o parroquia ${slug}.`,
  reasonRequired: 'Indica el motivo del cambio.',
  samePhase: 'La jornada ya está en esa fase.',
  closeTimeInvalid: 'Indica la hora de cierre como fecha y hora (AAAA-MM-DDTHH:MM).',
  closeTimePast: 'La hora de cierre debe ser posterior a la hora actual.',
  graceHours: `Las horas de gracia deben ser un número entero entre ${GRACE_HOURS_BOUNDS.min} y ${GRACE_HOURS_BOUNDS.max}.`,
  lateLabel: 'llegó después del cierre',
  /** What a phone is told about an item of a drill already erased: it drops it. */
  drillItem: 'Era del simulacro',
  drillNotClean: 'El simulacro empieza desde Preparación y sin votos ni fotos guardados.',
  drillLeave: 'Para salir del simulacro, usa «Terminar simulacro»: borra sus votos y fotos.',
  notInDrill: 'La jornada no está en simulacro.',
  drillCountsChanged: (votes: number, photos: number) =>
    `El simulacro tiene ahora ${countOf(votes, 'voto', 'votos')} y ${countOf(photos, 'foto', 'fotos')}: revisa los números y confirma otra vez.`,
  drillEnded: (votes: number, photos: number) =>
    `Simulacro terminado y borrado: ${countOf(votes, 'voto', 'votos')} y ${countOf(photos, 'foto', 'fotos')}. La jornada está en Preparación.`,
  phaseChanged: (label: string) => `La jornada pasó a ${label}.`,
  phaseRequired: 'Elige la nueva fase.',
  closeScheduled: 'Hora de cierre guardada.',
  /** The close's time-stamp, as Jornada says it. */
  closeStamped: (stampedAt: string) =>
    `Cadena sellada por la autoridad de sellado de tiempo ${atClock(new Date(stampedAt))}`,
  closeStampPending: 'Cierre sin sello de tiempo: la autoridad de sellado no respondió; se pedirá otra vez.',
  /** 'Se aceptan hasta las 6:00 a. m.': the end of the grace after the close, in Caracas time. */
  graceUntil: (graceEndsAt: string) => `Se aceptan ${untilClock(new Date(graceEndsAt))}`,
  graceOver: (graceEndsAt: string) =>
    `El plazo de gracia terminó ${atClock(new Date(graceEndsAt))} Ya no se acepta nada de lo que quedó en los teléfonos.`,
  outstandingNone: 'No falta nada: todo lo que los teléfonos avisaron antes del cierre ya llegó.',
} as const;

const reason = z
  .string({ error: electionMessages.reasonRequired })
  .trim()
  .min(3, electionMessages.reasonRequired)
  .max(500, 'El motivo no puede tener más de 500 caracteres.');

/** A change of phase, with why. */
export const electionPhaseBodySchema = z.object({ phase: electionPhaseSchema, reason });
export type ElectionPhaseBody = z.infer<typeof electionPhaseBodySchema>;

/**
 * The close set in advance: a wall-clock time in Caracas ('2026-11-28T18:00', what a datetime-local
 * field gives), or null for none; and the grace hours for items reported before the close.
 */
export const electionCloseBodySchema = z.object({
  closesAt: z
    .string({ error: electionMessages.closeTimeInvalid })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, electionMessages.closeTimeInvalid)
    .nullable(),
  graceHours: z
    .number({ error: electionMessages.graceHours })
    .int(electionMessages.graceHours)
    .min(GRACE_HOURS_BOUNDS.min, electionMessages.graceHours)
    .max(GRACE_HOURS_BOUNDS.max, electionMessages.graceHours),
  reason,
});
export type ElectionCloseBody = z.infer<typeof electionCloseBodySchema>;

/** One item accepted after the close because a phone had reported it before. */
export const lateArrivalSchema = z.object({
  kind: z.string(),
  slug: z.string(),
  /** The municipality's or parish's name. */
  title: z.string(),
  recordId: z.number().int(),
  /** The record's name (the person validated), as validators see it on its card. */
  record: z.string(),
  by: z.string(),
  at: z.string(),
});

/** Items 'Por llegar' lists at most; `total` counts them all. */
export const OUTSTANDING_LISTED = 1_000;

/** One item a phone reported before the close that has not arrived yet. */
export const outstandingItemSchema = z.object({
  kind: z.string(),
  recordId: z.number().int(),
  /** The record's name (the person to validate), as validators see it on its card. */
  record: z.string(),
  /** When the server first heard of it (the phone's report). */
  heardAt: z.string(),
});
export type OutstandingItem = z.infer<typeof outstandingItemSchema>;

/**
 * 'Por llegar' after the close: what phones reported before it and has not arrived, by municipality or
 * parish and validator, and until when it is accepted. Empty before the close and once the grace is over.
 */
export const outstandingSchema = z.object({
  closedAt: z.string().nullable(),
  /** The end of the grace after the close (UTC ISO); null before the close. */
  graceEndsAt: z.string().nullable(),
  generatedAt: z.string(),
  total: z.number().int(),
  departments: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      validators: z.array(z.object({ email: z.string(), items: z.array(outstandingItemSchema) })),
    }),
  ),
});
export type Outstanding = z.infer<typeof outstandingSchema>;
/**
 * The database's epoch (decision 106): 1 for the database made here, one more each time it was restored
 * from a copy, with the point that copy reached (`restoredUntil`). A phone that sees a new epoch knows
 * the server may lack what it acknowledged after that point.
 */
export const databaseEpochSchema = z.object({
  number: z.number().int(),
  startedAt: z.string(),
  restoredUntil: z.string().nullable(),
});
export type DatabaseEpoch = z.infer<typeof databaseEpochSchema>;

/** The day as everyone may read it (the phase decides what the pages show). */
export const electionStatusSchema = z.object({
  phase: electionPhaseSchema,
  /** The close set in advance (UTC ISO), if any and not yet passed or already applied. */
  closesAt: z.string().nullable(),
  /** When the day closed (UTC ISO), while it is closed. */
  closedAt: z.string().nullable(),
  /** Items accepted after the close, reported by a phone before it. */
  lateArrivals: z.number().int(),
  /** The server's time of this answer (UTC ISO): the countdown to the close runs on it, not on the phone's clock. */
  now: z.string(),
  /** The database's epoch; null only before the server first recorded it. */
  epoch: databaseEpochSchema.nullable(),
});
export type ElectionStatus = z.infer<typeof electionStatusSchema>;

/** Past this lag (seconds), Jornada shows the off-machine copy in red (decision 106). */
export const COPY_LAG_RED_SECONDS = 60;

/**
 * The off-machine copy as Jornada shows it (decision 106): Litestream's replica (SQLite), a streaming
 * standby (PostgreSQL), else the last whole backup, or none. `lagSeconds`: how long ago the copy was last
 * known to hold everything (for a backup, its age); null with no copy at all.
 */
export const copyStateSchema = z.object({
  kind: z.enum(['litestream', 'standby', 'backup', 'none']),
  lagSeconds: z.number().int().nullable(),
  /** Whether the copy answered at the last look (Litestream's replica, a standby connected). */
  answering: z.boolean(),
  checkedAt: z.string(),
});
export type CopyState = z.infer<typeof copyStateSchema>;

/** 'hace 5 s', 'hace 3 min', 'hace 2 h 5 min'. */
function ago(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}

/** Whether Jornada shows the copy in red. */
export const copyIsLate = (copy: CopyState) => copy.lagSeconds === null || copy.lagSeconds > COPY_LAG_RED_SECONDS;

/** What Jornada says about the copy, in one sentence. */
export function copyStateText(copy: CopyState): string {
  const lag = copy.lagSeconds ?? 0;
  switch (copy.kind) {
    case 'none':
      return 'Sin copia fuera de esta máquina: si el servidor se pierde, se pierde todo lo que solo está en él. Configura REPLICA_URL (Litestream), un PostgreSQL en espera o copias con «npm run cli -- backup».';
    case 'backup':
      return `Sin copia continua: la última copia de seguridad completa es de hace ${ago(lag)}. Lo recibido desde entonces solo está en este servidor.`;
    default: {
      const name =
        copy.kind === 'litestream' ? 'La copia fuera de la máquina (Litestream)' : 'El servidor PostgreSQL en espera';
      if (lag <= COPY_LAG_RED_SECONDS) return `${name} está al día: le faltan como mucho ${ago(lag)} de cambios.`;
      const why = copy.answering ? '' : ' No responde.';
      return `${name} va ${ago(lag)} por detrás: lo recibido desde entonces solo está en este servidor.${why}`;
    }
  }
}

/** What the drill holds: the votes and photos 'Terminar simulacro' would erase. */
export const drillCountsSchema = z.object({ votes: z.number().int(), photos: z.number().int() });
export type DrillCounts = z.infer<typeof drillCountsSchema>;

/** 'Terminar simulacro', confirmed with the counts the admin was shown. */
export const drillEndBodySchema = drillCountsSchema.extend({ reason });
export type DrillEndBody = z.infer<typeof drillEndBodySchema>;

export const drillEndResultSchema = drillCountsSchema.extend({
  message: z.string(),
  filesDeleted: z.number().int(),
  /** The files its photos had: those not deleted are left to the storage sweep. */
  files: z.number().int().optional(),
  /** The drill's own accounts deleted with it (decision 103). */
  accountsRemoved: z.number().int().optional(),
});
export type DrillEndResult = z.infer<typeof drillEndResultSchema>;

/** Accounts made for one drill at a time (decision 103): at most this many. */
export const DRILL_ACCOUNTS_MAX = 1000;

/**
 * The rehearsal's validator accounts (decision 103): made during 'Simulacro' only, each on one of the
 * departments named (in turn), the first `smsPhones` with a made-up mobile number to vote by SMS from.
 * 'Terminar simulacro' deletes them with everything of theirs.
 */
export const drillAccountsBodySchema = z.object({
  count: z.number().int().min(1).max(DRILL_ACCOUNTS_MAX),
  departments: z
    .array(
      z
        .string()
        .max(100)
        .regex(/^[a-z0-9-]+$/),
    )
    .min(1)
    .max(500),
  smsPhones: z.number().int().min(0).max(DRILL_ACCOUNTS_MAX).default(0),
});
export type DrillAccountsBody = z.input<typeof drillAccountsBodySchema>;

export const drillAccountsResultSchema = z.object({
  /** One password for every account of this batch, shown once. */
  password: z.string(),
  accounts: z.array(z.object({ email: z.string(), slug: z.string(), smsPhone: z.string().nullable() })),
});
export type DrillAccountsResult = z.infer<typeof drillAccountsResultSchema>;

/** The Jornada section: the status, who changed it last and why, the grace, the late arrivals. */
/**
 * The RFC 3161 time-stamp of the chain's head at the close (decision 088): when the authority gave it, or
 * while it has not, when it was last asked for and why it failed. Null before the close or with no authority set.
 */
export const closeStampSchema = z.object({
  stampedAt: z.string().nullable(),
  triedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type CloseStampState = z.infer<typeof closeStampSchema>;

export const electionAdminSchema = electionStatusSchema.extend({
  graceHours: z.number().int(),
  closeStamp: closeStampSchema.nullable(),
  changedAt: z.string().nullable(),
  changedBy: z.string().nullable(),
  reason: z.string().nullable(),
  /** During the drill: what it holds. */
  drill: drillCountsSchema.nullable(),
  /** Ballots and photos received so far: what a close by hand is confirmed with. */
  received: drillCountsSchema,
  late: z.array(lateArrivalSchema),
});
export type ElectionAdmin = z.infer<typeof electionAdminSchema>;

/**
 * 'Resultados al cierre': the counts the server kept at the close (per candidate, and per municipality
 * or parish), and apart from them how many items arrived late. `closedAt` null: the day has not closed.
 */
export const closeResultsSchema = z.object({
  closedAt: z.string().nullable(),
  takenAt: z.string().nullable(),
  ballots: z.number().int(),
  candidates: z.array(z.object({ code: z.string(), name: z.string(), votes: z.number().int() })),
  departments: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      ballots: z.number().int(),
      votes: z.record(z.string(), z.number()),
    }),
  ),
  lateArrivals: z.number().int(),
});
export type CloseResults = z.infer<typeof closeResultsSchema>;

/** 'Resultados al cierre, 6:00 p. m.' */
export const closeResultsTitle = (closedAt: string) => `Resultados al cierre, ${formatTime(new Date(closedAt))}`;

/** At most this many item keys in one question (a phone asks again for the rest). */
export const ITEMS_ASKED_MAX = 500;

/**
 * A phone's question about its items, by item key (decision 135): which the server holds, and which are in
 * the off-machine copy ('Asegurado'). Asked for the items it sent and keeps, and after a new epoch for all.
 */
export const itemsAskedSchema = z.object({
  keys: z
    .array(z.uuid())
    .max(ITEMS_ASKED_MAX)
    .refine((keys) => new Set(keys).size === keys.length, { message: 'Cada clave debe aparecer una sola vez.' }),
});
export type ItemsAsked = z.infer<typeof itemsAskedSchema>;

export const itemsHeldSchema = z.object({
  /** The database's epoch: a phone that sees a new number asks about everything it keeps. */
  epoch: databaseEpochSchema.nullable(),
  /** The copy the answer counts on; 'none': nothing is ever 'Asegurado'. */
  copy: copyStateSchema.shape.kind,
  /** The asked keys the server holds, stored by the person who asks. */
  held: z.array(z.string()),
  /** Of those, the ones the copy holds too. */
  secured: z.array(z.string()),
});
export type ItemsHeld = z.infer<typeof itemsHeldSchema>;
