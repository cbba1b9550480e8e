import { z } from 'zod';

/**
 * Votes and photos may carry this header: a UUID the phone makes when the person acts. A retry with the
 * same key gets the first answer again (see docs/decisions/023).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set to `true` on an answer given again for a key already used. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export const idempotencyMessages = {
  malformed: 'La cabecera Idempotency-Key debe ser un UUID.',
  reused: 'Esta clave Idempotency-Key ya se usó para otra solicitud. Cada envío necesita su propia clave.',
} as const;

/** The request headers of a route that honours the key (Node gives header names in lowercase). */
export const idempotencyHeadersSchema = z.object({
  'idempotency-key': z.uuid({ message: idempotencyMessages.malformed }).optional(),
});
