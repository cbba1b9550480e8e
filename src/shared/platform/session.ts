import { adminSectionSchema } from './access';
import { NEW_PASSWORD_MIN_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { emailMessages } from './email';
import { z } from './zod-spanish';

export const PASSWORD_MAX_LENGTH = 256;

/** Sign-in messages. The first four are the spec's (sections 5 and 8), word for word. */
export const authMessages = {
  required: 'Debes completar todos los campos de la forma.',
  invalidEmail: emailMessages.invalid,
  shortPassword: `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres.`,
  invalidCredentials: 'Error en usuario o contraseña.',
  passwordTooLong: `La contraseña no puede tener más de ${PASSWORD_MAX_LENGTH} caracteres.`,
  signInRequired: 'Debes iniciar sesión para continuar.',
  noDepartment: 'Tu cuenta todavía no tiene acceso a ningún departamento. Pide acceso a un administrador.',
  /** Firebase Auth's own slowdown: it does not say for how long. */
  tooManyAttempts: 'Demasiados intentos de inicio de sesión. Intenta de nuevo más tarde.',
  providerUnreachable: 'No se pudo contactar el servicio de inicio de sesión. Revisa tu conexión e intenta de nuevo.',
  providerUnavailable: 'No se pudo verificar el inicio de sesión en este momento. Intenta de nuevo en unos minutos.',
  /** An old page asked for the sign-in method this site does not use. */
  wrongProvider: 'Este sitio ya no inicia sesión de esa forma. Recarga la página e intenta de nuevo.',
  /** A session opened with a one-time password asked for anything but changing it. */
  passwordChangeRequired: 'Antes de continuar, elige una contraseña nueva.',
  currentPasswordRequired: 'Escribe la contraseña que usaste para entrar.',
  currentPasswordWrong: 'La contraseña actual no es correcta.',
  samePassword: 'La contraseña nueva debe ser distinta de la actual.',
  passwordsDiffer: 'Las dos contraseñas nuevas no coinciden.',
  /** New passwords (chosen by the person, an admin or the command line): longer than sign-in asks. */
  newPasswordTooShort: `Una contraseña nueva debe tener al menos ${NEW_PASSWORD_MIN_LENGTH} caracteres.`,
  commonPassword: 'Esa contraseña es de las más usadas y se adivina enseguida. Elige otra menos común.',
  /** A new password that is one character over and over ('11111111111'). */
  repeatedCharacter: 'Una contraseña nueva no puede ser un mismo carácter repetido. Elige otra.',
  /** A new password that zxcvbn scores 0 or 1: a series, a keyboard row, a word with a date. */
  weakPassword:
    'Esa contraseña se adivina fácilmente (una serie, una fila del teclado o una palabra con una fecha). ' +
    'Elige otra: por ejemplo, tres o cuatro palabras unidas con guiones.',
  oneTimePasswordExpired:
    'Tu contraseña de un solo uso venció. Pide a un administrador que te dé una nueva en Personas.',
  /** A session older than the one-time password it should have been opened with (a reset meanwhile). */
  signInAgain: 'Vuelve a entrar con la contraseña de un solo uso que te dieron.',
  passwordChanged: 'Contraseña cambiada. Ya puedes continuar.',
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

/** One character over and over, whatever its length ('11111111111'). */
export const isOneRepeatedCharacter = (password: string) => /^(.)\1*$/su.test(password);

/**
 * A new password, wherever one is chosen (the person, an admin): at least 10 characters, not one
 * character repeated. The server also refuses the most common ones and those zxcvbn finds easy to guess
 * (passwords.ts, decision 092); the list and the estimator stay off the browser.
 */
export const newPasswordFieldSchema = z
  .string({ error: authMessages.newPasswordTooShort })
  .min(NEW_PASSWORD_MIN_LENGTH, authMessages.newPasswordTooShort)
  .max(PASSWORD_MAX_LENGTH, authMessages.passwordTooLong)
  .refine((password) => !isOneRepeatedCharacter(password), authMessages.repeatedCharacter);

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
  user: z
    .object({
      email: z.string(),
      role: roleSchema,
      /** Signed in with a one-time password: the only thing to do is choose a new one. */
      mustChangePassword: z.boolean(),
      /**
       * The second factor this session still owes: 'verify' a code, or 'enrol' one first. Until it is
       * given, the menu is empty and only the second factor's form opens.
       */
      secondFactor: z.enum(['verify', 'enrol']).nullable().optional(),
    })
    .nullable(),
  /** The departments the user may open, in order; empty for visitors. */
  menu: z.array(menuEntrySchema),
  /** Where the user goes after signing in: the first entry of their menu, or null when they have none. */
  home: z.string().nullable(),
  /** Where logout leads (a setting; '/' by default). */
  logoutRoute: z.string(),
  /**
   * For someone signed in: when 'Borrar datos personales' last ran (null: never). A phone that kept
   * lists from before it forgets them when it sees a new one (decision 093).
   */
  personalDataPurgedAt: z.string().nullable().optional(),
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
