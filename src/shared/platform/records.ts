import { z } from 'zod';
import { PHOTO_KINDS } from '#shared/platform/constants';
import { atTime, dayAndTime } from '#shared/platform/format';

/*
 * A record as the validators' side sees it, shared by the features that answer with one: the validation
 * lists and the vote (records), a stored ballot photo (photos).
 */

/** Sentences about a record that more than one feature answers with. */
export const recordMessages = {
  unknownCandidates: (codes: string[]) =>
    codes.length === 1 ? `El candidato ${codes[0]} no existe.` : `Los candidatos ${codes.join(', ')} no existen.`,
  recordNotFound: 'El trámite no existe.',
  /** A vote or photo for a record the coordination voided after the validator saw it (Caracas time). */
  voidedMeanwhile: (at: string) => {
    const { day, time } = dayAndTime(at);
    return `La coordinación anuló este trámite el ${day} ${atTime(time)}`;
  },
} as const;

export const photoKindSchema = z.enum(PHOTO_KINDS);

/** Button and folder names of the three ballot photos (the spec's path uses them). */
export const PHOTO_KIND_LABELS = { gobernador: 'Gobernador', an: 'AN', clez: 'CLEZ' } as const;

export const photoSlotSchema = z.object({
  id: z.number().int(),
  /** The browser-ready JPEG, served only to people allowed on the department. */
  url: z.string(),
  thumbUrl: z.string(),
});
export type PhotoSlot = z.infer<typeof photoSlotSchema>;

/** Why a reviewer sent a slot back to the phone (decision 134): the card asks for another photo. */
export const photoRetakeSchema = z.object({
  reason: z.enum(['ilegible', 'no_corresponde']),
  note: z.string().nullable(),
});
export type PhotoRetake = z.infer<typeof photoRetakeSchema>;

/** 'Repetir foto: ilegible', as the validator's card says it. */
export const retakeLabel = (retake: PhotoRetake) =>
  `Repetir foto: ${retake.reason === 'ilegible' ? 'ilegible' : 'no corresponde'}`;

export const recordSchema = z.object({
  id: z.number().int(),
  comunidad: z.string(),
  nombre: z.string(),
  ubch: z.string(),
  telefono: z.string(),
  status: z.string(),
  votedAt: z.string().nullable(),
  /** Candidate codes of the vote; empty both before a vote and after a vote for nobody. */
  votes: z.array(z.string()),
  photos: z.object({
    gobernador: photoSlotSchema.nullable(),
    an: photoSlotSchema.nullable(),
    clez: photoSlotSchema.nullable(),
  }),
  /** Slots a reviewer reopened, waiting for another photo (absent: none). */
  retakes: z
    .object({
      gobernador: photoRetakeSchema.optional(),
      an: photoRetakeSchema.optional(),
      clez: photoRetakeSchema.optional(),
    })
    .optional(),
  /** Voted and with its three photos. */
  validated: z.boolean(),
  /** The e-mail of who voted it; null before the vote. */
  votedBy: z.string().nullable(),
  /** The e-mail of who validated it (the vote or the photo that completed it); null until validated. */
  validatedBy: z.string().nullable(),
  /** The vote was written again since it was cast: an admin corrected it (or cleared it and it was voted again). */
  voteCorrected: z.boolean(),
  /** The short code a validator types in an SMS vote (record-code.ts); empty while SMS votes are off. */
  code: z.string(),
});
export type ProcedureRecord = z.infer<typeof recordSchema>;
