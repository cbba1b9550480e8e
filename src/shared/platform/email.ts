import { z } from './zod-spanish';

export const emailMessages = {
  required: 'Indica el correo electrónico.',
  /** The spec's words (sections 5 and 8). */
  invalid: 'El formato del email es inválido.',
} as const;

/** The spec's "simple shape": something@something.something, no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 320;

/** Lowercase and trim, the one form e-mails are stored and compared in. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const isEmailShape = (email: string) => email.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(email);

/** An e-mail typed by a person: trimmed, lowercased, required and of the simple shape. */
export const emailFieldSchema = z
  .string({ error: emailMessages.required })
  .transform(normalizeEmail)
  .refine((v) => v.length > 0, emailMessages.required)
  .refine((v) => v.length === 0 || isEmailShape(v), emailMessages.invalid);
