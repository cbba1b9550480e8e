import { idParamsSchema } from '#shared/platform/query';
import { z } from '#shared/platform/zod-spanish';

export const candidatesMessages = {
  candidateNotFound: 'El candidato no existe.',
  candidateNameRequired: 'Indica el nombre del candidato.',
  candidateCode: 'El código debe tener de 1 a 5 letras mayúsculas sin acentos, por ejemplo FA.',
  candidateCodeTaken: (code: string) => `Ya existe un candidato con el código ${code}.`,
  candidateColour: 'El color debe ser hexadecimal de seis cifras, por ejemplo #1D4ED8.',
  candidateHasVotes: 'Este candidato ya tiene votos: no se puede borrar ni cambiar su código.',
} as const;

export const candidateCodeSchema = z
  .string({ error: candidatesMessages.candidateCode })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{1,5}$/, candidatesMessages.candidateCode);

export const candidateColourSchema = z
  .string({ error: candidatesMessages.candidateColour })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, candidatesMessages.candidateColour)
  .transform((v) => v.toUpperCase());

export const candidateNameSchema = z
  .string({ error: candidatesMessages.candidateNameRequired })
  .trim()
  .min(1, candidatesMessages.candidateNameRequired)
  .max(200, 'El nombre no puede tener más de 200 caracteres.');

export const adminCandidateSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  colour: z.string(),
  photoUrl: z.string(),
  position: z.number().int(),
  /** Votes counted for the candidate so far. */
  votes: z.number().int(),
});
export type AdminCandidate = z.infer<typeof adminCandidateSchema>;

export const adminCandidatesSchema = z.object({ items: z.array(adminCandidateSchema) });
export type AdminCandidates = z.infer<typeof adminCandidatesSchema>;

export const createCandidateBodySchema = z.object({
  code: candidateCodeSchema,
  name: candidateNameSchema,
  colour: candidateColourSchema,
});
export type CreateCandidateBody = z.input<typeof createCandidateBodySchema>;

export const updateCandidateBodySchema = z
  .object({
    code: candidateCodeSchema.optional(),
    name: candidateNameSchema.optional(),
    colour: candidateColourSchema.optional(),
    /** Place on the ballot, from 1. */
    position: z.number().int().min(1).max(100).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Indica qué cambiar.');
export type UpdateCandidateBody = z.input<typeof updateCandidateBodySchema>;

export const candidateIdParamsSchema = idParamsSchema;

/** Where candidate photos are served from, to everyone: they are public campaign material. */
export const CANDIDATE_PHOTOS_PATH = '/api/candidate-photos';

/** The picture of a candidate without a photo yet: a grey silhouette. */
export const CANDIDATE_PLACEHOLDER_PHOTO =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'%3E%3Crect width='64' height='64' fill='%23e7e5e4'/%3E%3Ccircle cx='32' cy='25' r='11' fill='%23a8a29e'/%3E%3Cpath d='M12 58c2-12 10-18 20-18s18 6 20 18z' fill='%23a8a29e'/%3E%3C/svg%3E";

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a #RRGGBB colour. */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG contrast ratio of two #RRGGBB colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever reads better on the colour. */
export function readableTextOn(hex: string): '#000000' | '#FFFFFF' {
  return contrastRatio(hex, '#000000') >= contrastRatio(hex, '#FFFFFF') ? '#000000' : '#FFFFFF';
}
