import { departmentSlugSchema } from '#shared/platform/access';
import { EMAIL_MAX_LENGTH, emailFieldSchema, isEmailShape, normalizeEmail } from '#shared/platform/email';
import { formatCount } from '#shared/platform/format';
import { idParamsSchema, optionalFilter } from '#shared/platform/query';
import { newPasswordFieldSchema, roleSchema } from '#shared/platform/session';
import { z } from '#shared/platform/zod-spanish';

/** Sentences of the people screens, shared by the API and the screens. */
export const peopleMessages = {
  emailTaken: (email: string) => `Ya existe un usuario con el correo ${email}.`,
  userNotFound: 'La persona no existe.',
  notYourself:
    'No puedes cambiar tu propia cuenta desde aquí: pídeselo a otro administrador o usa la línea de órdenes.',
  unknownDepartment: (slug: string) => `No existe el departamento ${slug}.`,
  bulkEmpty: 'Pega al menos un correo.',
  bulkTooMany: (max: number) => `Pega como máximo ${formatCount(max)} correos a la vez.`,
  badPhone: (typed: string) => `${typed} no es un número de teléfono móvil válido (por ejemplo 0414-123 45 67).`,
  phoneTaken: (phone: string, email: string) => `El número ${phone} ya es de otra cuenta (${email}).`,
  smsPhonesSaved: 'Números para votar por SMS guardados.',
} as const;

export const adminDepartmentRefSchema = z.object({ slug: z.string(), title: z.string() });

export const adminUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleSchema,
  disabled: z.boolean(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
  /** Whether the account has a second factor (TOTP): 'Segundo factor: activo / no' in Personas. */
  secondFactor: z.boolean(),
  /** The departments whose allow-list holds this e-mail, in menu order. */
  departments: z.array(adminDepartmentRefSchema),
  /** The mobile numbers this person votes by SMS from, as +58… (docs/decisions/084). */
  smsPhones: z.array(z.string()),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const USERS_PAGE_SIZE = 50;

export const usersQuerySchema = z.object({
  /** Part of the e-mail. */
  q: optionalFilter(z.string().trim().max(EMAIL_MAX_LENGTH)),
  role: optionalFilter(roleSchema),
  status: optionalFilter(z.enum(['active', 'disabled'])),
  /** Only people on this department's list. */
  department: optionalFilter(departmentSlugSchema),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type UsersQuery = Omit<z.input<typeof usersQuerySchema>, 'page'> & { page?: number };

export const usersPageSchema = z.object({
  items: z.array(adminUserSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type UsersPage = z.infer<typeof usersPageSchema>;

export const userIdParamsSchema = idParamsSchema;

export const createUserBodySchema = z.object({
  email: emailFieldSchema,
  role: roleSchema.default('staff'),
  /** Absent or null: the server makes a one-time password and answers it once. */
  password: newPasswordFieldSchema.nullish(),
  /** Departments whose allow-list gets the e-mail at once. */
  departments: z.array(departmentSlugSchema).max(100).default([]),
});
export type CreateUserBody = z.input<typeof createUserBodySchema>;

export const createUserResultSchema = z.object({
  user: adminUserSchema,
  /** The generated password, shown once and never again; null when the admin chose it. */
  oneTimePassword: z.string().nullable(),
});
export type CreateUserResult = z.infer<typeof createUserResultSchema>;

export const updateUserBodySchema = z
  .object({ role: roleSchema.optional(), disabled: z.boolean().optional() })
  .refine((v) => v.role !== undefined || v.disabled !== undefined, 'Indica qué cambiar.');
export type UpdateUserBody = z.input<typeof updateUserBodySchema>;

export const resetPasswordBodySchema = z.object({ password: newPasswordFieldSchema.nullish() });
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>;

export const resetPasswordResultSchema = z.object({
  user: adminUserSchema,
  oneTimePassword: z.string().nullable(),
  /** How many open sessions the reset ended. */
  sessionsEnded: z.number().int(),
});
export type ResetPasswordResult = z.infer<typeof resetPasswordResultSchema>;

/** "Cerrar sesión en todos los dispositivos" for someone else: how many open sessions ended. */
export const endSessionsResultSchema = z.object({ user: adminUserSchema, sessionsEnded: z.number().int() });
export type EndSessionsResult = z.infer<typeof endSessionsResultSchema>;

export const resetSecondFactorResultSchema = z.object({ user: adminUserSchema });
export type ResetSecondFactorResult = z.infer<typeof resetSecondFactorResultSchema>;

/** The numbers a person votes by SMS from, as typed (the server normalises and checks them). */
export const setSmsPhonesBodySchema = z.object({ phones: z.array(z.string().trim().max(40)).max(5) });

export const setUserDepartmentsBodySchema = z.object({ departments: z.array(departmentSlugSchema).max(100) });
export type SetUserDepartmentsBody = z.input<typeof setUserDepartmentsBodySchema>;

// --- bulk access -------------------------------------------------------------------------------------

export const BULK_MAX_ENTRIES = 1000;
export const BULK_MAX_CHARS = 200_000;

export const bulkAccessBodySchema = z.object({
  /** E-mails, one per line or separated by commas or semicolons ("Ana <ana@x.org>" is fine too). */
  text: z
    .string({ error: peopleMessages.bulkEmpty })
    .max(BULK_MAX_CHARS, peopleMessages.bulkTooMany(BULK_MAX_ENTRIES))
    .refine((v) => v.trim().length > 0, peopleMessages.bulkEmpty),
  slug: departmentSlugSchema,
  action: z.enum(['grant', 'revoke']),
  /** Only report what would happen. */
  dryRun: z.boolean().default(false),
});
export type BulkAccessBody = z.input<typeof bulkAccessBodySchema>;

export const bulkLineStatusSchema = z.enum(['added', 'already', 'removed', 'absent', 'invalid', 'duplicate']);
export type BulkLineStatus = z.infer<typeof bulkLineStatusSchema>;

export const bulkAccessResultSchema = z.object({
  slug: z.string(),
  title: z.string(),
  action: z.enum(['grant', 'revoke']),
  dryRun: z.boolean(),
  lines: z.array(
    z.object({
      /** Line of the pasted text, from 1. */
      line: z.number().int(),
      text: z.string(),
      email: z.string().nullable(),
      status: bulkLineStatusSchema,
      message: z.string(),
      /** The e-mail has an account (null when the line is invalid). */
      hasAccount: z.boolean().nullable(),
    }),
  ),
  summary: z.object({
    changed: z.number().int(),
    unchanged: z.number().int(),
    invalid: z.number().int(),
    duplicate: z.number().int(),
  }),
});
export type BulkAccessResult = z.infer<typeof bulkAccessResultSchema>;

export interface BulkEntry {
  line: number;
  text: string;
}

/**
 * The entries of a pasted list: split at line breaks, commas and semicolons, blanks skipped, each with
 * its line number. "Nombre <correo>" keeps the part between the angle brackets.
 */
export function splitBulkText(text: string): BulkEntry[] {
  const entries: BulkEntry[] = [];
  for (const [index, line] of text.split(/\r\n|\r|\n/).entries()) {
    for (const part of line.split(/[,;]/)) {
      const trimmed = part.trim();
      if (trimmed) entries.push({ line: index + 1, text: trimmed.slice(0, 400) });
    }
  }
  return entries;
}

/** The e-mail of one pasted entry, normalised, or null when it is not one. */
export function bulkEntryEmail(text: string): string | null {
  const angle = /<([^<>]+)>/.exec(text);
  const email = normalizeEmail((angle ? angle[1] : text) ?? '').replace(/^mailto:/, '');
  return isEmailShape(email) ? email : null;
}
