import { PASSWORD_MIN_LENGTH } from '#shared/platform/constants';
import { isEmailShape, normalizeEmail } from '#shared/platform/email';
import { authMessages, newPasswordFieldSchema, PASSWORD_MAX_LENGTH } from '#shared/platform/session';
import { z } from '#shared/platform/zod-spanish';

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

/**
 * POST /api/auth/password: the signed-in person replaces their password. After a one-time password the
 * session itself proves it (the person typed it to open the session): only the new one is sent. Any
 * other time the current password is asked, and the server refuses the change without it.
 */
export const changePasswordBodySchema = z
  .object({
    currentPassword: z
      .string({ error: authMessages.currentPasswordRequired })
      .min(1, authMessages.currentPasswordRequired)
      .max(PASSWORD_MAX_LENGTH, authMessages.currentPasswordWrong)
      .optional(),
    newPassword: newPasswordFieldSchema,
  })
  .refine((v) => v.newPassword !== v.currentPassword, { message: authMessages.samePassword, path: ['newPassword'] });
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;

/** GET /api/auth/sessions: the person's open sessions ('Sesiones abiertas'). */
export const openSessionSchema = z.object({
  id: z.number().int(),
  /** 'Chrome en Android (teléfono)', from the browser's user agent; 'Dispositivo desconocido' without one. */
  device: z.string(),
  ip: z.string().nullable(),
  /** 'Maracaibo, Venezuela' where the server's database knows the IP, 'Red local' for one of the local network. */
  place: z.string().nullable(),
  createdAt: z.string(),
  /** When it was last used, to the minute. */
  lastUsedAt: z.string(),
  /** The session of this very browser. */
  current: z.boolean(),
});
export type OpenSession = z.infer<typeof openSessionSchema>;
/** Whose data the places are: credited, with its link, wherever places are shown (DB-IP's CC BY 4.0). */
export const ipPlaceSourceSchema = z.object({ text: z.string(), url: z.string().nullable() });
export type IpPlaceSource = z.infer<typeof ipPlaceSourceSchema>;
/** The place of an address of the local network or of the server's own machine. */
export const LOCAL_NETWORK = 'Red local';
export const openSessionsSchema = z.object({
  sessions: z.array(openSessionSchema),
  /** Null when the server has no place database. */
  placeSource: ipPlaceSourceSchema.nullable(),
});
export type OpenSessions = z.infer<typeof openSessionsSchema>;
export const sessionIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
export const sessionEndedSchema = z.object({ ended: z.literal(true), current: z.boolean() });
export const sessionsMessages = {
  notFound: 'Esa sesión ya no está abierta.',
} as const;
