import { z } from '#shared/platform/zod-spanish';

/** The setting that makes the second factor mandatory for admins (decision 080); '1' or '0'. */
export const SECOND_FACTOR_SETTING = 'second_factor_admins';

export const secondFactorMessages = {
  /** A session that still owes its second factor asked for anything else. */
  required: 'Antes de continuar, escribe el código de tu aplicación de autenticación.',
  enrolRequired: 'Antes de continuar, configura el segundo factor: es obligatorio para los administradores.',
  codeRequired: 'Escribe el código de 6 dígitos de tu aplicación o un código de recuperación.',
  wrongCode: 'El código no es correcto o ya se usó. Espera el siguiente e intenta de nuevo.',
  noEnrolment: 'Primero pide un código QR nuevo.',
  alreadyEnrolled: 'Ya tienes un segundo factor. Pide a un administrador que lo restablezca para configurar otro.',
  notEnrolled: 'Esa cuenta no tiene segundo factor.',
  reset: 'Segundo factor restablecido: la próxima vez que entre, configurará uno nuevo.',
  keyMismatch:
    'No se puede comprobar el código: la clave del segundo factor de este servidor no es la correcta. Avisa al responsable técnico.',
} as const;

/** A six-digit code, or a recovery code (16 letters and digits, dashes and spaces ignored). */
export const secondFactorCodeSchema = z
  .string({ error: secondFactorMessages.codeRequired })
  .trim()
  .min(6, secondFactorMessages.codeRequired)
  .max(40, secondFactorMessages.wrongCode);

/** POST /api/auth/second-factor/verify and /confirm. */
export const secondFactorCodeBodySchema = z.object({ code: secondFactorCodeSchema });
export type SecondFactorCodeBody = z.infer<typeof secondFactorCodeBodySchema>;

/** POST /api/auth/second-factor/enrol: a new secret to scan (shown once as a QR code and as text). */
export const secondFactorEnrolmentSchema = z.object({
  /** base32, for typing into an app by hand. */
  secret: z.string(),
  /** The otpauth:// address the QR code carries. */
  uri: z.string(),
  /** The QR code, an SVG drawn by the server. */
  qrSvg: z.string(),
});
export type SecondFactorEnrolment = z.infer<typeof secondFactorEnrolmentSchema>;

/** After confirming: the ten recovery codes, shown this once and never again. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** GET /api/auth/second-factor: whether the person has one, and how many recovery codes are left. */
export const secondFactorStatusSchema = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;
