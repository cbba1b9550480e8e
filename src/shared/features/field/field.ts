import { z } from 'zod';
import { PHOTO_KINDS } from '#shared/platform/constants';
import { emailFieldSchema } from '#shared/platform/email';
import { eraIdSchema, eraSchema } from '#shared/platform/era';

/** Items waiting longer than this on a phone make its validator stand out in the field view. */
export const FIELD_STUCK_MINUTES = 10;

/**
 * The bounds of field reports (docs/decisions/060): a phone lists at most this many of its waiting
 * items (its oldest), a person has at most this many phones on record (a new one replaces the one heard
 * from longest ago), and a person's phones send at most this many reports a minute between them.
 */
export const FIELD_REPORT_MAX_ITEMS = 500;
export const FIELD_DEVICES_PER_PERSON = 5;
export const FIELD_REPORTS_PER_MINUTE = 40;

/** What the field routes answer when they refuse. */
export const fieldMessages = {
  tooManyReports: 'Demasiados informes de este teléfono. El siguiente saldrá en un momento.',
  deviceTaken: 'Otra sesión abierta ya informa con este identificador de teléfono.',
} as const;

const instant = z.iso.datetime({ offset: true });
const slug = z
  .string()
  .max(100)
  .regex(/^[a-z0-9-]+$/);

/** What waits: the record's vote, or one of its ballot photos. */
export const fieldItemKindSchema = z.enum(['vote', ...PHOTO_KINDS]);
export type FieldItemKind = z.infer<typeof fieldItemKindSchema>;

export const fieldItemSchema = z.object({
  /** The item's Idempotency-Key. */
  key: z.uuid(),
  slug,
  recordId: z.number().int().positive().max(2_147_483_647),
  kind: fieldItemKindSchema,
  /** When the person saved it on the phone (the phone's clock). */
  savedAt: instant,
  /**
   * What was captured (decision 094): the ballot's codes (voteFingerprint) or the photo's SHA-256. Only a
   * key reported with it is taken after the close, and only for the same content.
   */
  fingerprint: z.string().max(200).optional(),
  /** The era the phone stamped on it at capture. */
  era: eraIdSchema.nullable().optional(),
});
export type FieldItem = z.infer<typeof fieldItemSchema>;

/**
 * What a signed-in phone says about its outbox (docs/decisions/048, 060): the signed-in person's items
 * waiting (saved or sending), each named, so that the server can leave out those that have arrived
 * since. Times are the phone's clock; `deviceNow` lets the server put them on its own.
 */
export const deviceReportSchema = z.object({
  deviceId: z.uuid(),
  deviceNow: instant,
  lastSuccessAt: instant.nullable(),
  lastError: z.object({ message: z.string().max(500), at: instant }).nullable(),
  items: z
    .array(fieldItemSchema)
    .max(FIELD_REPORT_MAX_ITEMS)
    .refine((items) => new Set(items.map((i) => i.key)).size === items.length, {
      message: 'Cada envío debe aparecer una sola vez.',
    }),
  /**
   * After a server restored from a copy (decision 135): the database epoch the phone last checked its
   * items against, the items it sent again because the server lacked them, and those still waiting.
   */
  recovery: z
    .object({
      epoch: z.number().int().positive().nullable(),
      resent: z.number().int().nonnegative().max(100_000),
      fromBefore: z.number().int().nonnegative().max(100_000),
    })
    .optional(),
});
export type DeviceReport = z.infer<typeof deviceReportSchema>;

/** The answer: when it was received, and the day's era for the phone to stamp on what it captures next. */
export const deviceReportAnswerSchema = z.object({ receivedAt: z.string(), era: eraSchema.nullable().optional() });
export type DeviceReportAnswer = z.infer<typeof deviceReportAnswerSchema>;

export const fieldValidatorSchema = z.object({
  email: z.string(),
  /** The last report of any of this person's phones (null: never reported). */
  lastSeenAt: z.string().nullable(),
  /** Items for this department waiting on their phones that the server has not received. */
  waiting: z.number().int(),
  oldestWaitingAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
  /** Items for this department waiting for more than FIELD_STUCK_MINUTES. */
  stuck: z.boolean(),
  devices: z.number().int(),
  /** After the close: the waiting items the server heard of before it, which it still takes. */
  heardBeforeClose: z.number().int().optional(),
  /**
   * Only once the server was restored from a copy (decision 135): items this person's phones sent again
   * because the server lacked them, those still on a phone waiting to go, and whether every phone of
   * theirs has checked its items against the restored server.
   */
  recovery: z.object({ resent: z.number().int(), fromBefore: z.number().int(), checked: z.boolean() }).optional(),
});
export type FieldValidator = z.infer<typeof fieldValidatorSchema>;

export const fieldViewSchema = z.object({
  slug: z.string(),
  title: z.string(),
  /** The server's time of this answer: what "ago" is counted from. */
  generatedAt: z.string(),
  stuckAfterMinutes: z.number().int(),
  validators: z.array(fieldValidatorSchema),
});
export type FieldView = z.infer<typeof fieldViewSchema>;

/** One department in the view of all of them: how many on its list, items waiting, validators stuck. */
export const fieldDepartmentSummarySchema = z.object({
  slug: z.string(),
  title: z.string(),
  validators: z.number().int(),
  /** Validators with something waiting. */
  withWaiting: z.number().int(),
  waiting: z.number().int(),
  stuck: z.number().int(),
});
export type FieldDepartmentSummary = z.infer<typeof fieldDepartmentSummarySchema>;

/**
 * Every department a person may see at once: each one's summary (those with someone stuck first), and
 * every validator with something waiting, in any of them (the stuck first).
 */
export const fieldOverviewSchema = z.object({
  generatedAt: z.string(),
  stuckAfterMinutes: z.number().int(),
  departments: z.array(fieldDepartmentSummarySchema),
  validators: z.array(fieldValidatorSchema.extend({ slug: z.string(), title: z.string() })),
});
export type FieldOverview = z.infer<typeof fieldOverviewSchema>;
export type FieldOverviewValidator = FieldOverview['validators'][number];

export const fieldParamsSchema = z.object({ slug });

/** A coordinator clears what a person's phones said was waiting in a department (a phone gone quiet). */
export const fieldClearBodySchema = z.object({ email: emailFieldSchema });
export const fieldClearAnswerSchema = z.object({ cleared: z.number().int() });

/** A validator with no vote for longer than this is flagged idle in the pace table. */
export const FIELD_IDLE_MINUTES = 30;

/** One validator's pace in one department: votes this hour, the last one, idle or not, items on the phone. */
export const fieldPaceRowSchema = z.object({
  email: z.string(),
  slug: z.string(),
  title: z.string(),
  /** Records this person voted in the last 60 minutes. */
  lastHour: z.number().int().nonnegative(),
  /** Their last vote in this department (null: none yet). */
  lastActivityAt: z.string().nullable(),
  /** No vote for more than FIELD_IDLE_MINUTES (or none yet). */
  idle: z.boolean(),
  /** Items for this department waiting on their phones that the server has not received. */
  waiting: z.number().int().nonnegative(),
  stuck: z.boolean(),
});
export type FieldPaceRow = z.infer<typeof fieldPaceRowSchema>;

export const fieldPaceSchema = z.object({
  generatedAt: z.string(),
  idleAfterMinutes: z.number().int(),
  /** Every member of the lists a person may see; the idle and stuck first. */
  validators: z.array(fieldPaceRowSchema),
});
export type FieldPace = z.infer<typeof fieldPaceSchema>;
