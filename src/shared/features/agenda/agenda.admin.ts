import { formatCount } from '#shared/platform/format';
import { z } from '#shared/platform/zod-spanish';
import { agendaEventSchema } from './agenda';

/** Sentences of the agenda editor, shared by the API and the screen. */
export const agendaAdminMessages = {
  badDate: 'La fecha debe ser un día válido con el formato AAAA-MM-DD.',
  badTime: 'La hora debe estar en formato de 24 horas HH:MM, por ejemplo 07:30 o 18:45.',
  descriptionRequired: 'Escribe la descripción del evento.',
  descriptionTooLong: 'La descripción no puede tener más de 500 caracteres.',
  placeTooLong: 'El lugar no puede tener más de 300 caracteres.',
  rangeOrder: 'La fecha inicial no puede ser posterior a la final.',
  rangeTooLong: 'Consulta como máximo 92 días a la vez.',
  eventNotFound: 'El evento no existe.',
  sameDay: 'Elige un día distinto al de origen.',
  nothingToCopy: 'Ese día no tiene eventos para copiar.',
  created: 'Evento creado.',
  updated: 'Evento actualizado.',
  deleted: 'Evento eliminado.',
  copied: (copied: number, skipped: number) =>
    `${copied === 1 ? 'Se copió 1 evento' : `Se copiaron ${formatCount(copied)} eventos`}${
      skipped > 0 ? ` (${skipped === 1 ? '1 ya estaba' : `${formatCount(skipped)} ya estaban`} en ese día)` : ''
    }.`,
} as const;

export const AGENDA_RANGE_MAX_DAYS = 92;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR_24 = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** True for a real calendar day written YYYY-MM-DD (no 2026-02-30). */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** Whole days from one calendar date to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export const isoDateSchema = z
  .string({ error: agendaAdminMessages.badDate })
  .trim()
  .refine(isIsoDate, agendaAdminMessages.badDate);

/** A 24-hour time; '7:05' is accepted and stored as '07:05'. */
export const hour24Schema = z
  .string({ error: agendaAdminMessages.badTime })
  .trim()
  .regex(HOUR_24, agendaAdminMessages.badTime)
  .transform((v) => v.padStart(5, '0'));

export const agendaEventBodySchema = z.object({
  fecha: isoDateSchema,
  hora24h: hour24Schema,
  descripcion: z
    .string({ error: agendaAdminMessages.descriptionRequired })
    .trim()
    .min(1, agendaAdminMessages.descriptionRequired)
    .max(500, agendaAdminMessages.descriptionTooLong),
  /** Optional: an empty place is stored as null (the public page says 'Lugar no disponible'). */
  lugar: z
    .string()
    .trim()
    .max(300, agendaAdminMessages.placeTooLong)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type AgendaEventBody = z.input<typeof agendaEventBodySchema>;

export const agendaEventParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

export const agendaRangeQuerySchema = z
  .object({ from: isoDateSchema, to: isoDateSchema })
  .refine((q) => q.from <= q.to, { message: agendaAdminMessages.rangeOrder, path: ['to'] })
  .refine((q) => daysBetween(q.from, q.to) < AGENDA_RANGE_MAX_DAYS, {
    message: agendaAdminMessages.rangeTooLong,
    path: ['to'],
  });
export type AgendaRangeQuery = z.infer<typeof agendaRangeQuerySchema>;

/** Events of a range of days, by day and then by time (malformed times last). */
export const agendaAdminListSchema = z.object({ events: z.array(agendaEventSchema) });
export type AgendaAdminList = z.infer<typeof agendaAdminListSchema>;

export const agendaEventResultSchema = z.object({ message: z.string(), event: agendaEventSchema });
export type AgendaEventResult = z.infer<typeof agendaEventResultSchema>;

export const agendaDeleteResultSchema = z.object({ message: z.string() });

export const agendaCopyBodySchema = z
  .object({ from: isoDateSchema, to: isoDateSchema })
  .refine((b) => b.from !== b.to, { message: agendaAdminMessages.sameDay, path: ['to'] });
export type AgendaCopyBody = z.input<typeof agendaCopyBodySchema>;

export const agendaCopyResultSchema = z.object({
  message: z.string(),
  /** Events created on the target day. */
  copied: z.number().int(),
  /** Events of the source day the target day already had (same time, description and place). */
  skipped: z.number().int(),
  events: z.array(agendaEventSchema),
});
export type AgendaCopyResult = z.infer<typeof agendaCopyResultSchema>;
