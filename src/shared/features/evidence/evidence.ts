import { departmentSlugSchema } from '#shared/platform/access';
import { formatCount, formatTime } from '#shared/platform/format';
import { optionalFilter } from '#shared/platform/query';
import { z } from '#shared/platform/zod-spanish';

/** The last check of the audit chain (`audit:verify` or the button of Auditoría), as it ended. */
export const chainCheckSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  /** Every link holds up to this place of the chain. */
  verifiedUpTo: z.number().int(),
  /** The chain's last place when it was checked. */
  lastSeq: z.number().int(),
  problems: z.number().int(),
  /** The first problems found, as the command line names them. */
  firstProblems: z.array(z.string()),
});
export type ChainCheck = z.infer<typeof chainCheckSchema>;

export const chainStateSchema = z.object({
  /** The chain's last place now. */
  headSeq: z.number().int(),
  lastCheck: chainCheckSchema.nullable(),
  /** The fingerprint (SHA-256 of the public key) of the key that signs evidence packages. */
  keyFingerprint: z.string().nullable(),
});
export type ChainState = z.infer<typeof chainStateSchema>;

export const evidenceQuerySchema = z.object({ department: optionalFilter(departmentSlugSchema) });
export type EvidenceQuery = z.infer<typeof evidenceQuerySchema>;

/** The package's body, as the OpenAPI document describes it. */
export const evidenceZipSchema = z.string().describe('Archivo ZIP del paquete de evidencias');

/** 'Cadena verificada hasta el registro 1.234, 9:41 p. m.', or what went wrong. */
export function chainCheckLabel(check: ChainCheck | null): string {
  if (!check) return 'La cadena aún no se ha verificado.';
  const time = formatTime(new Date(check.at));
  return check.ok
    ? `Cadena verificada hasta el registro ${formatCount(check.verifiedUpTo)}, ${time}`
    : `Cadena con ${formatCount(check.problems)} ${check.problems === 1 ? 'problema' : 'problemas'}: verificada hasta el registro ${formatCount(check.verifiedUpTo)}, ${time}`;
}

export const evidenceMessages = {
  departmentNotFound: 'Ese municipio no existe.',
  timestampUnavailable:
    'La autoridad de sellado de tiempo no respondió: el paquete no se generó. Inténtalo de nuevo en unos minutos.',
  timestampRefused: 'La autoridad de sellado de tiempo rechazó la petición: el paquete no se generó.',
} as const;
