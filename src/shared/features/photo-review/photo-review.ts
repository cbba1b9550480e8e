import { z } from 'zod';
import { PHOTO_KINDS } from '#shared/platform/constants';
import { photoKindSchema } from '#shared/platform/records';

/*
 * Photo review (decision 134): the contract of the review queue, a record's review and the reviewers'
 * grants.
 */

export const REVIEW_VERDICTS = ['conforme', 'ilegible', 'no_corresponde'] as const;
export const reviewVerdictSchema = z.enum(REVIEW_VERDICTS);
export type ReviewVerdict = z.infer<typeof reviewVerdictSchema>;

export const REVIEW_VERDICT_LABELS: Record<ReviewVerdict, string> = {
  conforme: 'Conforme',
  ilegible: 'Ilegible',
  no_corresponde: 'No corresponde',
};

/** The keys of each verdict on the review screen. */
export const REVIEW_VERDICT_KEYS: Record<ReviewVerdict, string> = { conforme: 'c', ilegible: 'i', no_corresponde: 'n' };

export const photoReviewMessages = {
  title: 'Revisión',
  empty: 'No hay trámites por revisar.',
  reviewed: 'Revisión guardada',
  alreadyReviewed: 'Otra persona acaba de revisar este trámite (o cambió una de sus fotos). Pasa al siguiente.',
  ownUpload: 'No puedes revisar fotos que tú mismo subiste.',
  noVerdict: 'Marca al menos una foto.',
  notReviewer: 'No tienes municipios para revisar.',
  grantAdded: 'Revisor agregado',
  grantRemoved: 'Revisor quitado',
  notMunicipality: 'Solo se revisan trámites de municipios o parroquias.',
} as const;

const slugSchema = z
  .string()
  .max(100)
  .regex(/^[a-z0-9-]+$/);

/** ?municipio=slug&despues=<cursor>: the queue of one municipality (or of all one may review), oldest first. */
export const reviewQueueQuerySchema = z.object({
  municipio: slugSchema.optional(),
  despues: z
    .string()
    .max(80)
    .regex(/^[0-9T:.Z-]+_[0-9]+$/)
    .optional(),
  limite: z.coerce.number().int().min(1).max(50).default(10),
});
export type ReviewQueueQuery = z.input<typeof reviewQueueQuerySchema>;

export const reviewPhotoSchema = z.object({
  kind: photoKindSchema,
  id: z.number().int(),
  url: z.string(),
  thumbUrl: z.string(),
  /** Null while unreviewed; a photo reviewed earlier shows its verdict. */
  verdict: reviewVerdictSchema.nullable(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
});
export type ReviewPhoto = z.infer<typeof reviewPhotoSchema>;

export const reviewItemSchema = z.object({
  recordId: z.number().int(),
  municipality: z.object({ slug: z.string(), title: z.string() }),
  ubch: z.string(),
  votedAt: z.string(),
  /** The candidate codes of the vote (FA, LC, NR). */
  votes: z.array(z.string()),
  photos: z.array(reviewPhotoSchema),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

export const reviewQueueSchema = z.object({
  items: z.array(reviewItemSchema),
  /** The cursor of the next page; null at the end. */
  next: z.string().nullable(),
  /** Records waiting in this queue (counted up to 10,000 per municipality). */
  waiting: z.number().int(),
  /** The municipalities this person may review. */
  municipalities: z.array(z.object({ slug: z.string(), title: z.string() })),
});
export type ReviewQueue = z.infer<typeof reviewQueueSchema>;

export const reviewRecordParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const reviewInputSchema = z.object({
  verdicts: z
    .array(
      z.object({
        kind: photoKindSchema,
        photoId: z.number().int().positive(),
        verdict: reviewVerdictSchema,
        note: z.string().trim().max(500).optional(),
      }),
    )
    .min(1, photoReviewMessages.noVerdict)
    .max(PHOTO_KINDS.length)
    .refine((v) => new Set(v.map((x) => x.kind)).size === v.length, 'Cada foto una sola vez.'),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

export const reviewResultSchema = z.object({
  message: z.string(),
  /** The record went back to the phone for another photo. */
  reopened: z.boolean(),
  /** All three photos are 'conforme' now. */
  reviewed: z.boolean(),
});
export type ReviewResult = z.infer<typeof reviewResultSchema>;

export const reviewGrantSchema = z.object({ email: z.string(), slug: z.string(), title: z.string() });
export const reviewGrantsSchema = z.object({
  grants: z.array(reviewGrantSchema),
  municipalities: z.array(z.object({ slug: z.string(), title: z.string() })),
});
export type ReviewGrants = z.infer<typeof reviewGrantsSchema>;

export const reviewGrantInputSchema = z.object({
  email: z.string().trim().toLowerCase().email('Escribe un correo válido.').max(320),
  slug: slugSchema,
});
export type ReviewGrantInput = z.infer<typeof reviewGrantInputSchema>;

export const okSchema = z.object({ message: z.string() });
