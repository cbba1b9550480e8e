import { adminSectionSchema } from '#shared/platform/access';
import { PASSWORD_MIN_LENGTH } from '#shared/platform/constants';
import { z } from '#shared/platform/zod-spanish';

/** Sign-in messages. The first four are the spec's (sections 5 and 8), word for word. */
export const authMessages = {
  required: 'Debes completar todos los campos de la forma.',
  invalidEmail: 'El formato del email es inválido.',
  shortPassword: `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres.`,
  invalidCredentials: 'Error en usuario o contraseña.',
  signInRequired: 'Debes iniciar sesión para continuar.',
  noDepartment: 'Tu cuenta todavía no tiene acceso a ningún departamento. Pide acceso a un administrador.',
  /** Firebase Auth's own slowdown: it does not say for how long. */
  tooManyAttempts: 'Demasiados intentos de inicio de sesión. Intenta de nuevo más tarde.',
  providerUnreachable: 'No se pudo contactar el servicio de inicio de sesión. Revisa tu conexión e intenta de nuevo.',
  providerUnavailable: 'No se pudo verificar el inicio de sesión en este momento. Intenta de nuevo en unos minutos.',
  /** An old page asked for the sign-in method this site does not use. */
  wrongProvider: 'Este sitio ya no inicia sesión de esa forma. Recarga la página e intenta de nuevo.',
} as const;

/** 'Demasiados intentos...' with the wait in words a person understands. */
export function tooManyAttemptsMessage(waitSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(waitSeconds));
  const when =
    seconds < 60
      ? `${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}`
      : `${Math.ceil(seconds / 60)} ${Math.ceil(seconds / 60) === 1 ? 'minuto' : 'minutos'}`;
  return `Demasiados intentos de inicio de sesión. Intenta de nuevo en ${when}.`;
}

/** The spec's "simple shape": something@something.something, no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 320;
export const PASSWORD_MAX_LENGTH = 256;

/** Lowercase and trim, the one form e-mails are stored and compared in. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const isEmailShape = (email: string) => email.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(email);

/**
 * The sign-in form and the body of POST /api/auth/login. One message at a time, in the spec's order:
 * missing fields first, then the e-mail's shape, then the password's length.
 */
export const loginBodySchema = z
  .object({
    email: z.string({ error: authMessages.required }),
    password: z.string({ error: authMessages.required }),
  })
  .transform((v) => ({ email: normalizeEmail(v.email), password: v.password }))
  .superRefine((v, ctx) => {
    if (!v.email || !v.password) {
      ctx.addIssue({ code: 'custom', message: authMessages.required, path: [!v.email ? 'email' : 'password'] });
    } else if (!isEmailShape(v.email)) {
      ctx.addIssue({ code: 'custom', message: authMessages.invalidEmail, path: ['email'] });
    } else if (v.password.length < PASSWORD_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', message: authMessages.shortPassword, path: ['password'] });
    } else if (v.password.length > PASSWORD_MAX_LENGTH) {
      // Never a real password; refusing it keeps a huge body from costing a hash.
      ctx.addIssue({ code: 'custom', message: authMessages.invalidCredentials, path: ['password'] });
    }
  });
export type LoginBody = z.input<typeof loginBodySchema>;

/**
 * GET /api/auth/provider: who checks passwords. For Firebase, only the web API key (and, in tests and
 * local trials, the emulator's address) reaches the browser: e-mail/password sign-in needs nothing else.
 */
export const authProviderSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('local') }),
  z.object({ provider: z.literal('firebase'), apiKey: z.string(), emulatorUrl: z.string().optional() }),
]);
export type AuthProvider = z.infer<typeof authProviderSchema>;

/** POST /api/auth/firebase: the Firebase ID token, sent once to open our own session. */
export const firebaseLoginBodySchema = z.object({
  idToken: z.string({ error: authMessages.invalidCredentials }).min(1, authMessages.invalidCredentials).max(8192),
});
export type FirebaseLoginBody = z.infer<typeof firebaseLoginBodySchema>;

export const roleSchema = z.enum(['admin', 'staff']);
export type Role = z.infer<typeof roleSchema>;

export const menuEntrySchema = z.object({
  title: z.string(),
  path: z.string(),
  /** Only on the 'Administración' entry: the back-office sections this person may use. */
  sections: z.array(adminSectionSchema).optional(),
});
export type MenuEntry = z.infer<typeof menuEntrySchema>;

/** What the browser learns about the person: who they are and what they may open. */
export const sessionSchema = z.object({
  user: z.object({ email: z.string(), role: roleSchema }).nullable(),
  /** The departments the user may open, in order; empty for visitors. */
  menu: z.array(menuEntrySchema),
  /** Where the user goes after signing in: the first entry of their menu, or null when they have none. */
  home: z.string().nullable(),
  /** Where logout leads (a setting; '/' by default). */
  logoutRoute: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;

export const logoutResponseSchema = z.object({ redirectTo: z.string() });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/**
 * A `next` target is followed only when it is a path of this site: starts with one slash, no scheme,
 * no host, no backslash, no control character, and not the login page itself.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || next.length > 2000) return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(next)) return null;
  try {
    const base = 'http://comando.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return null;
    if (url.pathname === '/login' || url.pathname.startsWith('/api/')) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
