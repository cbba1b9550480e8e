import { z } from 'zod';
import { departmentParamsSchema } from '#shared/platform/access';
import { RECORDS_PAGE_SIZE } from '#shared/platform/constants';
import { atTime, dayAndTime } from '#shared/platform/format';
import { idParamsSchema } from '#shared/platform/query';
import { recordSchema } from '#shared/platform/records';

/** Sentences of the validation screen, shared by the API and the web. */
export const recordsMessages = {
  alreadyVoted: 'Este trámite ya fue votado.',
  /** The 409 of a second vote: who voted and when, in Caracas time. */
  alreadyVotedBy: (by: string, at: string) => {
    const { day, time } = dayAndTime(at);
    return `Este trámite ya fue votado por ${by} el ${day} ${atTime(time)}`;
  },
  voteSuccess: 'Votaste con éxito',
  repeatedCandidate: 'Un candidato aparece más de una vez.',
  noRecords: 'No hay trámites pendientes en este municipio o parroquia.',
  noMatches: 'Ningún trámite coincide con la búsqueda.',
  completed: 'Municipio / Parroquia Completada',
  voteNotSaved: 'No se pudo guardar el voto en el teléfono. Intenta de nuevo.',
} as const;

export const candidateSchema = z.object({
  code: z.string(),
  name: z.string(),
  colour: z.string(),
  photoUrl: z.string(),
});
export type Candidate = z.infer<typeof candidateSchema>;
export const candidatesSchema = z.object({ items: z.array(candidateSchema) });
export type CandidatesList = z.infer<typeof candidatesSchema>;

export const recordParamsSchema = departmentParamsSchema.extend(idParamsSchema.shape);

export const recordsQuerySchema = z.object({
  /** Search in name, phone, community and UBCH. */
  q: z.string().trim().max(100).optional(),
  /** Also list records already validated (vote and three photos). */
  validated: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
  /** Keyset cursor: the last id of the previous page. */
  after: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(RECORDS_PAGE_SIZE).default(RECORDS_PAGE_SIZE),
});
export type RecordsQuery = z.input<typeof recordsQuerySchema>;

export const recordsPageSchema = z.object({
  items: z.array(recordSchema),
  /** Pass as `after` to get the next page; null on the last page. */
  nextCursor: z.number().int().nullable(),
});
export type RecordsPage = z.infer<typeof recordsPageSchema>;

export const recordsSummarySchema = z.object({
  /** Pending records of the department, finished or not. */
  total: z.number().int(),
  voted: z.number().int(),
  /** With a vote and all three photos. */
  validated: z.number().int(),
});
export type RecordsSummary = z.infer<typeof recordsSummarySchema>;

export const voteBodySchema = z.object({
  /** Candidate codes ticked in the dialog; none is allowed. */
  candidates: z
    .array(z.string().trim().toUpperCase().min(1).max(10))
    .max(10)
    .refine((codes) => new Set(codes).size === codes.length, recordsMessages.repeatedCandidate),
});
export type VoteBody = z.input<typeof voteBodySchema>;

export const voteResultSchema = z.object({
  message: z.string(),
  record: recordSchema,
});
export type VoteResult = z.infer<typeof voteResultSchema>;

/** The page title of the spec: the slug with hyphens as spaces, in uppercase. */
export function validationTitle(slug: string): string {
  return slug.replace(/-/g, ' ').toUpperCase();
}
