import { z } from 'zod';

/** Items waiting longer than this on a phone make its validator stand out in the field view. */
export const FIELD_STUCK_MINUTES = 10;

const instant = z.iso.datetime({ offset: true });
const slug = z
  .string()
  .max(100)
  .regex(/^[a-z0-9-]+$/);

/**
 * What a signed-in phone says about its outbox (docs/decisions/048): only the signed-in person's items.
 * Times are the phone's clock; `deviceNow` lets the server put them on its own.
 */
export const deviceReportSchema = z.object({
  deviceId: z.uuid(),
  deviceNow: instant,
  waiting: z.number().int().min(0).max(100_000),
  oldestWaitingAt: instant.nullable(),
  lastSuccessAt: instant.nullable(),
  lastError: z.object({ message: z.string().max(500), at: instant }).nullable(),
  departments: z
    .array(z.object({ slug, waiting: z.number().int().min(0).max(100_000), oldestWaitingAt: instant.nullable() }))
    .max(200),
});
export type DeviceReport = z.infer<typeof deviceReportSchema>;

export const deviceReportAnswerSchema = z.object({ receivedAt: z.string() });

export const fieldValidatorSchema = z.object({
  email: z.string(),
  /** The last report of any of this person's phones (null: never reported). */
  lastSeenAt: z.string().nullable(),
  /** Items waiting on their phones for this department. */
  waiting: z.number().int(),
  oldestWaitingAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
  /** Items for this department waiting for more than FIELD_STUCK_MINUTES. */
  stuck: z.boolean(),
  devices: z.number().int(),
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

export const fieldDepartmentsSchema = z.object({
  departments: z.array(z.object({ slug: z.string(), title: z.string() })),
});
export type FieldDepartments = z.infer<typeof fieldDepartmentsSchema>;

export const fieldParamsSchema = z.object({ slug });
