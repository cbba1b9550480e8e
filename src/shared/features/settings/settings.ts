import { z } from '#shared/platform/zod-spanish';

export const siteInfoSchema = z.object({
  campaignName: z.string(),
  leaderName: z.string(),
  today: z.string(),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;

export const settingsMessages = {
  campaignNameRequired: 'Indica el nombre de la campaña.',
  leaderNameRequired: 'Indica el nombre del líder.',
  denominator: 'El denominador debe ser un número entero positivo.',
  logoutRoute: 'La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.',
  photoMaxMb: (min: number, max: number) =>
    `El tamaño máximo de foto debe ser un número entero entre ${min} y ${max} MB.`,
} as const;

export const PHOTO_MAX_MB_BOUNDS = { min: 1, max: 50 } as const;

/** A path of this site: one leading slash, no host, no backslash, no control character, not the API. */
export function isSameSitePath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || value.length > 200) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\s]/.test(value)) return false;
  try {
    const base = 'http://comando.invalid';
    const url = new URL(value, base);
    return url.origin === base && !url.pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

export const adminSettingsSchema = z.object({
  campaignName: z
    .string({ error: settingsMessages.campaignNameRequired })
    .trim()
    .min(1, settingsMessages.campaignNameRequired)
    .max(80, 'El nombre de la campaña no puede tener más de 80 caracteres.'),
  leaderName: z
    .string({ error: settingsMessages.leaderNameRequired })
    .trim()
    .min(1, settingsMessages.leaderNameRequired)
    .max(120, 'El nombre del líder no puede tener más de 120 caracteres.'),
  resultsDenominator: z
    .number({ error: settingsMessages.denominator })
    .int(settingsMessages.denominator)
    .min(1, settingsMessages.denominator)
    .max(100_000_000, 'El denominador no puede pasar de 100.000.000.'),
  logoutRoute: z
    .string({ error: settingsMessages.logoutRoute })
    .trim()
    .refine(isSameSitePath, settingsMessages.logoutRoute),
  photoMaxMb: z
    .number({ error: settingsMessages.photoMaxMb(PHOTO_MAX_MB_BOUNDS.min, PHOTO_MAX_MB_BOUNDS.max) })
    .int(settingsMessages.photoMaxMb(PHOTO_MAX_MB_BOUNDS.min, PHOTO_MAX_MB_BOUNDS.max))
    .min(PHOTO_MAX_MB_BOUNDS.min, settingsMessages.photoMaxMb(PHOTO_MAX_MB_BOUNDS.min, PHOTO_MAX_MB_BOUNDS.max))
    .max(PHOTO_MAX_MB_BOUNDS.max, settingsMessages.photoMaxMb(PHOTO_MAX_MB_BOUNDS.min, PHOTO_MAX_MB_BOUNDS.max)),
  /** Phones send the picked photo as it is instead of a JPEG of at most 2560 px (docs/decisions/047). */
  photoSendOriginals: z.boolean().default(false),
  /** 'Exigir segundo factor a los administradores' (docs/decisions/080); on by default in production. */
  requireSecondFactorAdmins: z.boolean().optional(),
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;
export type AdminSettingsBody = z.input<typeof adminSettingsSchema>;
