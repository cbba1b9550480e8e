import { z } from 'zod';
import { departmentSlugSchema } from '#shared/platform/access';
import { atTime, dayAndTime } from '#shared/platform/format';

/*
 * Votes by SMS (docs/decisions/084): the gateway's webhook as it sends it, the answers a validator reads
 * on their phone, and the 'Mensajes' screen's list.
 */

/**
 * A webhook of SMS Gateway for Android, as its documentation gives it: `event`, the ids of the event,
 * the webhook and the device, and for `sms:received` the text, the sender and when the phone received
 * it (its own time zone). Other events (sent, delivered, ping) are taken and ignored.
 */
export const smsWebhookSchema = z.object({
  event: z.string().max(40),
  id: z.string().max(100).optional(),
  webhookId: z.string().max(100).optional(),
  deviceId: z.string().max(100).optional(),
  payload: z
    .object({
      messageId: z.string().max(200).optional(),
      message: z.string().max(2_000).optional(),
      phoneNumber: z.string().max(40).optional(),
      simNumber: z.number().int().nullable().optional(),
      receivedAt: z.string().max(40).optional(),
    })
    .passthrough(),
});
export type SmsWebhook = z.infer<typeof smsWebhookSchema>;

/** What the webhook answers the gateway (any 2xx stops its retries). */
export const smsWebhookResultSchema = z.object({
  /** applied… as the message's outcome; 'duplicado' for a delivery already taken; 'ignorado' for other events. */
  outcome: z.string(),
});

/** What became of a message: received (the first six; 'recibido' while it is being applied) or sent (the last two). */
export const SMS_OUTCOMES = [
  'recibido',
  'aplicado',
  'repetido',
  'rechazado',
  'malformado',
  'limitado',
  'enviado',
  'fallido',
] as const;
export type SmsOutcome = (typeof SMS_OUTCOMES)[number];

export const SMS_OUTCOME_LABELS: Record<SmsOutcome, string> = {
  recibido: 'Recibido',
  aplicado: 'Aplicado',
  repetido: 'Ya estaba registrado',
  rechazado: 'Rechazado',
  malformado: 'Mal escrito',
  limitado: 'Demasiados mensajes',
  enviado: 'Enviado',
  fallido: 'No se pudo enviar',
};

/** The answers a validator reads on their phone; plain text, short (one SMS where possible), in 'tú' as the app. */
export const smsReplies = {
  /** 'Registrado: María P., Cabimas: FA, LC' */
  registered: (name: string, department: string, candidates: string[]) =>
    `Registrado: ${name}, ${department}: ${candidates.length > 0 ? candidates.join(', ') : 'ninguno'}`,
  alreadyRegistered: (name: string, department: string, candidates: string[]) =>
    `Ya estaba registrado: ${name}, ${department}: ${candidates.length > 0 ? candidates.join(', ') : 'ninguno'}`,
  howToWrite: (candidates: readonly string[]) =>
    `Escribe: V CODIGO ${candidates.slice(0, 2).join(' ')} (los candidatos separados por espacios) o V CODIGO 0 si no votó por ninguno. El código está en la tarjeta del trámite.`,
  notUnderstood: (candidates: readonly string[]) => `No entendimos el mensaje. ${smsReplies.howToWrite(candidates)}`,
  noCode: (candidates: readonly string[]) => `Falta el código del trámite. ${smsReplies.howToWrite(candidates)}`,
  badCode: (typed: string) =>
    `El código ${typed} no es de ningún trámite. Cópialo de la tarjeta del trámite: son 6 letras y números (por ejemplo 7K2M9X).`,
  noCandidates: (candidates: readonly string[]) =>
    `Faltan los candidatos. Escribe sus códigos (${candidates.join(', ')}) o 0 si no votó por ninguno.`,
  unknownCandidates: (typed: string[], candidates: readonly string[]) =>
    `${typed.length === 1 ? `No existe el candidato ${typed[0]}` : `No existen los candidatos ${typed.join(', ')}`}. Los candidatos son: ${candidates.join(', ')} (o 0 para ninguno).`,
  noneWithOthers: 'Escribe 0 solo, sin otros candidatos, si no votó por ninguno.',
  /** The same answer for a code nobody has and for a record outside the sender's departments. */
  recordNotFound: (code: string) =>
    `No hay ningún trámite con el código ${code} en tus municipios. Revisa el código en la tarjeta del trámite.`,
  unknownSender:
    'Este número no está registrado para votar por SMS. Pide a la coordinación que lo agregue a tu cuenta en Personas.',
  accountDisabled: 'Tu cuenta está desactivada. Habla con la coordinación.',
  /** A different vote was stored first: who and when (the app's 409 says the same). */
  alreadyVotedBy: (code: string, by: string, at: string) => {
    const { day, time } = dayAndTime(at);
    return `No se registró: el trámite ${code} ya fue votado por ${by} el ${day} ${atTime(time)}`;
  },
  refused: (reason: string) => `No se registró: ${reason}`,
  failed: 'No se pudo registrar por un error del servidor. Intenta de nuevo en unos minutos.',
} as const;

/** Why a received message was not applied, as the screen shows it (kept with the message). */
export const smsReasons = {
  unknownSender: 'Número desconocido',
  accountDisabled: 'Cuenta desactivada',
  drillAccount: 'Cuenta de ensayo del simulacro: la respuesta no se envía',
  recordNotFound: 'Trámite inexistente o de otro departamento',
  tooMany: 'Demasiados mensajes de este número',
  tooManyOverall: 'Demasiados mensajes en total',
  /** The webhook's 503 to a delivery of a message being applied now: the gateway delivers it again later. */
  inProgress: 'Este mensaje se está registrando; la pasarela lo enviará de nuevo.',
} as const;

export const smsMessagesQuerySchema = z.object({
  /** The slug of a municipality or parish: messages about its records. */
  department: departmentSlugSchema.optional(),
  /** A number as anyone writes it: normalised before it is compared. */
  phone: z.string().trim().max(40).optional(),
  /** Keyset cursor: the last id of the previous page (newest first). */
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type SmsMessagesQuery = z.input<typeof smsMessagesQuerySchema>;

export const smsMessageSchema = z.object({
  id: z.number().int(),
  direction: z.enum(['in', 'out']),
  phone: z.string(),
  /** The account the number belongs to, if any. */
  userEmail: z.string().nullable(),
  department: z.object({ slug: z.string(), title: z.string() }).nullable(),
  body: z.string(),
  outcome: z.enum(SMS_OUTCOMES),
  reason: z.string().nullable(),
  /** Sent messages: the id of the received one they answer. */
  replyTo: z.number().int().nullable(),
  createdAt: z.string(),
});
export type SmsMessage = z.infer<typeof smsMessageSchema>;

export const smsMessagesPageSchema = z.object({
  items: z.array(smsMessageSchema),
  nextCursor: z.number().int().nullable(),
});
export type SmsMessagesPage = z.infer<typeof smsMessagesPageSchema>;

/**
 * Whether SMS votes can work now, for the top of Mensajes: configured or not, the number validators
 * text (SMS_GATEWAY_PHONE), whether the gateway's API answered just now, and the last message received.
 */
export const smsStatusSchema = z.object({
  configured: z.boolean(),
  /** The gateway phone's number ('+584141234567'); null when not given. */
  phone: z.string().nullable(),
  /** null when SMS is off; otherwise what the gateway's health check said when asked (`checkedAt`). */
  gateway: z.object({ answering: z.boolean(), reason: z.string().nullable() }).nullable(),
  checkedAt: z.string(),
  lastReceived: z
    .object({ at: z.string(), phone: z.string(), userEmail: z.string().nullable(), outcome: z.enum(SMS_OUTCOMES) })
    .nullable(),
});
export type SmsStatus = z.infer<typeof smsStatusSchema>;

export const smsMessagesText = {
  title: 'Mensajes',
  empty: 'No hay mensajes con estos filtros.',
  off: 'Los votos por SMS están apagados: falta configurar la pasarela (SMS_GATEWAY_URL y las demás).',
} as const;
