import { z } from 'zod';
import { eraIdSchema } from '#shared/platform/era';
import { photoKindSchema } from '#shared/platform/records';
import { photoSha256Schema } from './photos';

/**
 * Where ballot photos are sent with the tus protocol (resumable uploads, docs/decisions/046). An
 * upload's own address is this path followed by its id.
 */
export const PHOTO_UPLOADS_PATH = '/api/photo-uploads';

/** An upload's id, as the server makes it (32 hex digits). */
export const photoUploadIdSchema = z.string().regex(/^[0-9a-f]{32}$/);

/** What a tus upload of a ballot photo says about itself (its Upload-Metadata). */
export const photoUploadMetadataSchema = z.object({
  slug: z
    .string()
    .max(100)
    .regex(/^[a-z0-9-]+$/),
  recordId: z.coerce.number().int().positive().max(2_147_483_647),
  kind: photoKindSchema,
  filename: z.string().max(255).optional(),
  filetype: z.string().max(100).optional(),
  /** The SHA-256 of the bytes, as the phone computed them (absent: sent before phones computed it). */
  sha256: photoSha256Schema.optional(),
  /** The era the phone stamped on the photo when it was taken (decision 094). */
  era: eraIdSchema.optional(),
});
export type PhotoUploadMetadata = z.infer<typeof photoUploadMetadataSchema>;

/** Settings key: '1' when phones send original photos instead of right-sized JPEGs (docs/decisions/047). */
export const PHOTO_SEND_ORIGINALS_SETTING = 'photo_send_originals';

/** How the phone prepares ballot photos (the admins' setting). */
export const photoSettingsSchema = z.object({ sendOriginals: z.boolean() });
export type PhotoSettings = z.infer<typeof photoSettingsSchema>;

export const photoUploadsMessages = {
  keyRequired: 'Cada foto necesita la cabecera Idempotency-Key (un UUID).',
  lengthRequired: 'La subida debe decir el tamaño de la foto (Upload-Length).',
  badMetadata: 'La subida no dice a qué trámite y casilla va la foto.',
  tooManyOpen: 'Tienes demasiadas fotos a medio subir. Espera a que terminen e intenta de nuevo.',
  overBudget:
    'Tus fotos a medio subir ya ocupan todo el espacio que el servidor guarda por persona. Espera a que terminen e intenta de nuevo.',
  noConcatenation: 'Este servidor no une partes de una subida (Upload-Concat): envía cada foto en una sola subida.',
  gone: 'Esta subida ya no está en el servidor (venció o se quitó). La foto se enviará de nuevo.',
  notFinished: 'La foto aún no terminó de subir.',
  alreadyReceived: 'Esta foto ya se recibió completa.',
  offsetMismatch: 'Lo enviado no coincide con lo que el servidor ya tiene; se continuará desde ahí.',
  locked: 'Esta foto se está recibiendo en otra conexión; se intentará de nuevo.',
} as const;
