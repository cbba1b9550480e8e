import { z } from 'zod';
import { apiErrorSchema } from '#shared/platform/errors';
import { atTime, dayAndTime } from '#shared/platform/format';
import { photoKindSchema, recordSchema } from '#shared/platform/records';

export const DEFAULT_PHOTO_MAX_BYTES = 20 * 1024 * 1024;
/** Settings key of the upload limit, in bytes. */
export const PHOTO_MAX_BYTES_SETTING = 'photo_max_bytes';
/** What the file picker offers; the server checks the content, not the name. */
export const PHOTO_ACCEPT = '.jpg,.jpeg,.heic,image/jpeg,image/heic,image/heif';

export const photosMessages = {
  badFormat: 'Formato no permitido: solo JPG, JPEG o HEIC',
  tooLarge: (maxBytes: number) =>
    `La foto es demasiado grande: el máximo es ${Math.floor(maxBytes / (1024 * 1024))} MB. Toma la foto con menos resolución e intenta de nuevo.`,
  damaged: 'La imagen está dañada o incompleta. Tómala de nuevo e intenta otra vez.',
  missingFile: 'Debes adjuntar una foto.',
  slotFilled: 'Esta foto ya fue cargada.',
  /** The 409 of a second photo for a slot: who filled it and when, in Caracas time. */
  slotFilledBy: (by: string, at: string) => {
    const { day, time } = dayAndTime(at);
    return `Esta foto ya fue cargada por ${by} el ${day} ${atTime(time)}`;
  },
  duplicate: 'Atención: esta misma imagen ya se usó en otro trámite.',
  uploaded: 'Foto cargada con éxito',
  uploadFailed: 'No se pudo cargar la foto. Revisa tu conexión e intenta de nuevo.',
  uploadAborted: 'La carga de la foto se interrumpió.',
  photoNotFound: 'La foto no existe.',
  notSaved: 'No se pudo guardar la foto en el teléfono. Libera espacio e intenta de nuevo.',
  /** The bytes that arrived are not those the phone hashed: the phone sends its copy again. */
  arrivedDamaged: 'La foto llegó dañada; se enviará de nuevo',
  badSha256: 'El SHA-256 de la foto debe ser 64 cifras hexadecimales en minúscula.',
} as const;

/**
 * The SHA-256 of a photo's bytes as the phone computed them before sending (docs/decisions/082):
 * lowercase hex. Multipart sends it in this header; a resumable upload in its Upload-Metadata (`sha256`).
 */
export const PHOTO_SHA256_HEADER = 'x-photo-sha256';
export const photoSha256Schema = z.string().regex(/^[0-9a-f]{64}$/, { message: photosMessages.badSha256 });

/** The `code` of the refusal of a photo whose bytes differ from the SHA-256 the phone sent with it. */
export const PHOTO_ARRIVED_DAMAGED = 'photo-arrived-damaged';

/** A refusal that may name why in a word a program reads (the phone sends again on PHOTO_ARRIVED_DAMAGED). */
export const photoRefusalSchema = apiErrorSchema.extend({ code: z.literal(PHOTO_ARRIVED_DAMAGED).optional() });

/** Whether an answer's body is the refusal of a photo that arrived damaged. */
export const arrivedDamaged = (body: unknown): boolean =>
  (body as { code?: unknown } | undefined)?.code === PHOTO_ARRIVED_DAMAGED;

export const photoUploadParamsSchema = z.object({
  slug: z
    .string()
    .max(100)
    .regex(/^[a-z0-9-]+$/),
  id: z.coerce.number().int().positive().max(2_147_483_647),
  kind: photoKindSchema,
});

export const photoInfoSchema = z.object({
  id: z.number().int(),
  kind: photoKindSchema,
  sha256: z.string(),
  sizeBytes: z.number().int(),
  contentType: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
  /** The spec's readable path: /<department title>/<Gobernador|AN|CLEZ>/<record name>.<ext>, made safe. */
  path: z.string(),
});
export type PhotoInfo = z.infer<typeof photoInfoSchema>;

export const photoUploadResultSchema = z.object({
  message: z.string(),
  photo: photoInfoSchema,
  record: recordSchema,
  /** Set when the same image was already used for another record: accepted, but worth a look. */
  warning: z.string().nullable(),
});
export type PhotoUploadResult = z.infer<typeof photoUploadResultSchema>;

export const photoParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const photoQuerySchema = z.object({
  /** display: browser JPEG (default); thumb: small preview; original: the file as uploaded. */
  variant: z.enum(['display', 'thumb', 'original']).default('display'),
  download: z
    .enum(['0', '1'])
    .optional()
    .transform((v) => v === '1'),
});
