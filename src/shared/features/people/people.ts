import { departmentKindSchema } from '#shared/platform/access';
import {
  authMessages,
  EMAIL_MAX_LENGTH,
  isEmailShape,
  normalizeEmail,
  PASSWORD_MAX_LENGTH,
  roleSchema,
} from '#shared/features/auth/auth';
import { PASSWORD_MIN_LENGTH } from '#shared/platform/constants';
import { z } from '#shared/platform/zod-spanish';

/** Sentences of the back office, shared by the API and the screens. */
export const adminMessages = {
  emailRequired: 'Indica el correo electrónico.',
  emailTaken: (email: string) => `Ya existe un usuario con el correo ${email}.`,
  userNotFound: 'La persona no existe.',
  notYourself:
    'No puedes cambiar tu propia cuenta desde aquí: pídeselo a otro administrador o usa la línea de órdenes.',
  passwordTooLong: `La contraseña no puede tener más de ${PASSWORD_MAX_LENGTH} caracteres.`,
  unknownDepartment: (slug: string) => `No existe el departamento ${slug}.`,
  departmentNotFound: 'El departamento no existe.',
  titleRequired: 'Indica el título.',
  titleTooLong: 'El título no puede tener más de 200 caracteres.',
  bulkEmpty: 'Pega al menos un correo.',
  bulkTooMany: (max: number) => `Pega como máximo ${max} correos a la vez.`,
  candidateNotFound: 'El candidato no existe.',
  candidateNameRequired: 'Indica el nombre del candidato.',
  candidateCode: 'El código debe tener de 1 a 5 letras mayúsculas sin acentos, por ejemplo FA.',
  candidateCodeTaken: (code: string) => `Ya existe un candidato con el código ${code}.`,
  candidateColour: 'El color debe ser hexadecimal de seis cifras, por ejemplo #1D4ED8.',
  candidateHasVotes: 'Este candidato ya tiene votos: no se puede borrar ni cambiar su código.',
  campaignNameRequired: 'Indica el nombre de la campaña.',
  leaderNameRequired: 'Indica el nombre del líder.',
  denominator: 'El denominador debe ser un número entero positivo.',
  logoutRoute: 'La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.',
  photoMaxMb: (min: number, max: number) =>
    `El tamaño máximo de foto debe ser un número entero entre ${min} y ${max} MB.`,
  badDate: 'La fecha debe tener el formato AAAA-MM-DD.',
  dateOrder: 'La fecha inicial no puede ser posterior a la final.',
} as const;

// --- people ------------------------------------------------------------------------------------------

export const emailFieldSchema = z
  .string({ error: adminMessages.emailRequired })
  .transform(normalizeEmail)
  .refine((v) => v.length > 0, adminMessages.emailRequired)
  .refine((v) => v.length === 0 || isEmailShape(v), authMessages.invalidEmail);

export const passwordFieldSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, authMessages.shortPassword)
  .max(PASSWORD_MAX_LENGTH, adminMessages.passwordTooLong);

const slugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9-]+$/, 'El departamento no es válido.');

export const adminDepartmentRefSchema = z.object({ slug: z.string(), title: z.string() });

export const adminUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleSchema,
  disabled: z.boolean(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
  /** The departments whose allow-list holds this e-mail, in menu order. */
  departments: z.array(adminDepartmentRefSchema),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const USERS_PAGE_SIZE = 50;

/** A query-string filter: absent and empty both mean "any". */
function optionalFilter<T extends z.ZodType<string>>(schema: T) {
  return z
    .union([z.literal(''), schema])
    .optional()
    .transform((v) => (v === '' || v === undefined ? undefined : (v as z.output<T>)));
}

export const usersQuerySchema = z.object({
  /** Part of the e-mail. */
  q: optionalFilter(z.string().trim().max(EMAIL_MAX_LENGTH)),
  role: optionalFilter(roleSchema),
  status: optionalFilter(z.enum(['active', 'disabled'])),
  /** Only people on this department's list. */
  department: optionalFilter(slugSchema),
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

export const userIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const createUserBodySchema = z.object({
  email: emailFieldSchema,
  role: roleSchema.default('staff'),
  /** Absent or null: the server makes a one-time password and answers it once. */
  password: passwordFieldSchema.nullish(),
  /** Departments whose allow-list gets the e-mail at once. */
  departments: z.array(slugSchema).max(100).default([]),
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

export const resetPasswordBodySchema = z.object({ password: passwordFieldSchema.nullish() });
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>;

export const resetPasswordResultSchema = z.object({
  user: adminUserSchema,
  oneTimePassword: z.string().nullable(),
  /** How many open sessions the reset ended. */
  sessionsEnded: z.number().int(),
});
export type ResetPasswordResult = z.infer<typeof resetPasswordResultSchema>;

export const setUserDepartmentsBodySchema = z.object({ departments: z.array(slugSchema).max(100) });
export type SetUserDepartmentsBody = z.input<typeof setUserDepartmentsBodySchema>;

// --- bulk access -------------------------------------------------------------------------------------

export const BULK_MAX_ENTRIES = 1000;
export const BULK_MAX_CHARS = 200_000;

export const bulkAccessBodySchema = z.object({
  /** E-mails, one per line or separated by commas or semicolons ("Ana <ana@x.org>" is fine too). */
  text: z
    .string({ error: adminMessages.bulkEmpty })
    .max(BULK_MAX_CHARS, adminMessages.bulkTooMany(BULK_MAX_ENTRIES))
    .refine((v) => v.trim().length > 0, adminMessages.bulkEmpty),
  slug: slugSchema,
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

// --- departments -------------------------------------------------------------------------------------

export const adminDepartmentSchema = z.object({
  slug: z.string(),
  title: z.string(),
  kind: departmentKindSchema,
  path: z.string(),
  /** E-mails on the allow-list. */
  members: z.number().int(),
  /** Pending records, and those validated (vote and three photos). */
  total: z.number().int(),
  validated: z.number().int(),
  voted: z.number().int(),
});
export type AdminDepartment = z.infer<typeof adminDepartmentSchema>;

export const adminDepartmentsSchema = z.object({ items: z.array(adminDepartmentSchema) });
export type AdminDepartments = z.infer<typeof adminDepartmentsSchema>;

export const adminDepartmentDetailSchema = adminDepartmentSchema.extend({
  emails: z.array(
    z.object({
      email: z.string(),
      /** null: no account with that e-mail yet. */
      account: z.enum(['active', 'disabled']).nullable(),
      role: roleSchema.nullable(),
    }),
  ),
});
export type AdminDepartmentDetail = z.infer<typeof adminDepartmentDetailSchema>;

export const departmentParamsSchema = z.object({ slug: slugSchema });

export const updateDepartmentBodySchema = z.object({
  title: z
    .string({ error: adminMessages.titleRequired })
    .trim()
    .min(1, adminMessages.titleRequired)
    .max(200, adminMessages.titleTooLong),
});
export type UpdateDepartmentBody = z.input<typeof updateDepartmentBodySchema>;

export const departmentMemberParamsSchema = z.object({ slug: slugSchema, email: z.string().min(1).max(400) });

/** validated / total as a percentage; 0 without records. */
export function progressPercent(validated: number, total: number): number {
  return total > 0 ? (validated / total) * 100 : 0;
}

// --- candidates --------------------------------------------------------------------------------------

export const candidateCodeSchema = z
  .string({ error: adminMessages.candidateCode })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{1,5}$/, adminMessages.candidateCode);

export const candidateColourSchema = z
  .string({ error: adminMessages.candidateColour })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, adminMessages.candidateColour)
  .transform((v) => v.toUpperCase());

export const candidateNameSchema = z
  .string({ error: adminMessages.candidateNameRequired })
  .trim()
  .min(1, adminMessages.candidateNameRequired)
  .max(200, 'El nombre no puede tener más de 200 caracteres.');

export const adminCandidateSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  colour: z.string(),
  photoUrl: z.string(),
  position: z.number().int(),
  /** Votes counted for the candidate so far. */
  votes: z.number().int(),
});
export type AdminCandidate = z.infer<typeof adminCandidateSchema>;

export const adminCandidatesSchema = z.object({ items: z.array(adminCandidateSchema) });
export type AdminCandidates = z.infer<typeof adminCandidatesSchema>;

export const createCandidateBodySchema = z.object({
  code: candidateCodeSchema,
  name: candidateNameSchema,
  colour: candidateColourSchema,
});
export type CreateCandidateBody = z.input<typeof createCandidateBodySchema>;

export const updateCandidateBodySchema = z
  .object({
    code: candidateCodeSchema.optional(),
    name: candidateNameSchema.optional(),
    colour: candidateColourSchema.optional(),
    /** Place on the ballot, from 1. */
    position: z.number().int().min(1).max(100).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Indica qué cambiar.');
export type UpdateCandidateBody = z.input<typeof updateCandidateBodySchema>;

export const candidateIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Where candidate photos are served from, to everyone: they are public campaign material. */
export const CANDIDATE_PHOTOS_PATH = '/api/candidate-photos';

/** The picture of a candidate without a photo yet: a grey silhouette. */
export const CANDIDATE_PLACEHOLDER_PHOTO =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'%3E%3Crect width='64' height='64' fill='%23e7e5e4'/%3E%3Ccircle cx='32' cy='25' r='11' fill='%23a8a29e'/%3E%3Cpath d='M12 58c2-12 10-18 20-18s18 6 20 18z' fill='%23a8a29e'/%3E%3C/svg%3E";

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a #RRGGBB colour. */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG contrast ratio of two #RRGGBB colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever reads better on the colour. */
export function readableTextOn(hex: string): '#000000' | '#FFFFFF' {
  return contrastRatio(hex, '#000000') >= contrastRatio(hex, '#FFFFFF') ? '#000000' : '#FFFFFF';
}

// --- settings ----------------------------------------------------------------------------------------

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
    .string({ error: adminMessages.campaignNameRequired })
    .trim()
    .min(1, adminMessages.campaignNameRequired)
    .max(80, 'El nombre de la campaña no puede tener más de 80 caracteres.'),
  leaderName: z
    .string({ error: adminMessages.leaderNameRequired })
    .trim()
    .min(1, adminMessages.leaderNameRequired)
    .max(120, 'El nombre del líder no puede tener más de 120 caracteres.'),
  resultsDenominator: z
    .number({ error: adminMessages.denominator })
    .int(adminMessages.denominator)
    .min(1, adminMessages.denominator)
    .max(100_000_000, 'El denominador no puede pasar de 100.000.000.'),
  logoutRoute: z.string({ error: adminMessages.logoutRoute }).trim().refine(isSameSitePath, adminMessages.logoutRoute),
  photoMaxMb: z
    .number({ error: adminMessages.photoMaxMb(PHOTO_MAX_MB_BOUNDS.min, PHOTO_MAX_MB_BOUNDS.max) })
    .int(adminMessages.photoMaxMb(PHOTO_MAX_MB_BOUNDS.min, PHOTO_MAX_MB_BOUNDS.max))
    .min(PHOTO_MAX_MB_BOUNDS.min, adminMessages.photoMaxMb(PHOTO_MAX_MB_BOUNDS.min, PHOTO_MAX_MB_BOUNDS.max))
    .max(PHOTO_MAX_MB_BOUNDS.max, adminMessages.photoMaxMb(PHOTO_MAX_MB_BOUNDS.min, PHOTO_MAX_MB_BOUNDS.max)),
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;
export type AdminSettingsBody = z.input<typeof adminSettingsSchema>;

// --- audit log ---------------------------------------------------------------------------------------

export const AUDIT_PAGE_SIZE = 50;

/** A real calendar date, YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

const isoDateFilter = optionalFilter(z.string().refine(isIsoDate, adminMessages.badDate));

const auditFilterFields = {
  /** Part of the e-mail of who acted or of whom it was done to. */
  person: optionalFilter(z.string().trim().max(EMAIL_MAX_LENGTH)),
  /** An exact action ('user.create'), or a family ending in '*' ('user*'). */
  action: optionalFilter(
    z
      .string()
      .max(100)
      .regex(/^[a-z_.]+\*?$/, 'La acción no es válida.'),
  ),
  department: optionalFilter(slugSchema),
  /** Calendar dates in the campaign's time zone, both included. */
  from: isoDateFilter,
  to: isoDateFilter,
};

const datesInOrder = (v: { from?: string | undefined; to?: string | undefined }) => !v.from || !v.to || v.from <= v.to;

export const auditFiltersSchema = z
  .object(auditFilterFields)
  .refine(datesInOrder, { message: adminMessages.dateOrder, path: ['to'] });
export type AuditFilters = z.input<typeof auditFiltersSchema>;

export const auditQuerySchema = z
  .object({ ...auditFilterFields, page: z.coerce.number().int().min(1).max(100_000).default(1) })
  .refine(datesInOrder, { message: adminMessages.dateOrder, path: ['to'] });
export type AuditQuery = Omit<z.input<typeof auditQuerySchema>, 'page'> & { page?: number };

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  departmentSlug: z.string().nullable(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** Families of actions, for the filter: the value matches every action that starts with its prefix. */
export const AUDIT_ACTION_FAMILIES = [
  { value: 'auth*', label: 'Sesiones' },
  { value: 'user*', label: 'Personas' },
  { value: 'access*', label: 'Acceso a departamentos' },
  { value: 'department*', label: 'Departamentos' },
  { value: 'candidate*', label: 'Candidatos' },
  { value: 'setting*', label: 'Ajustes' },
  { value: 'record*', label: 'Trámites' },
  { value: 'photo*', label: 'Fotos' },
  { value: 'results*', label: 'Resultados' },
  { value: 'agenda*', label: 'Agenda' },
  { value: 'nota*', label: 'Notas' },
  { value: 'audit*', label: 'Auditoría' },
] as const;

/** Known actions in words; any other is shown as it is stored. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'auth.login': 'Inicio de sesión',
  'auth.login_failed': 'Inicio de sesión fallido',
  'auth.login_throttled': 'Inicio de sesión bloqueado por intentos',
  'auth.logout': 'Cierre de sesión',
  'user.create': 'Cuenta creada',
  'user.password': 'Contraseña cambiada',
  'user.disable': 'Cuenta desactivada',
  'user.enable': 'Cuenta activada',
  'user.role': 'Rol cambiado',
  'access.grant': 'Acceso concedido',
  'access.revoke': 'Acceso retirado',
  'department.update': 'Departamento editado',
  'candidate.create': 'Candidato creado',
  'candidate.update': 'Candidato editado',
  'candidate.photo': 'Foto de candidato cambiada',
  'candidate.delete': 'Candidato borrado',
  'setting.update': 'Ajuste cambiado',
  'record.vote': 'Voto registrado',
  'photo.upload': 'Foto de boleta cargada',
  'photo.replace': 'Foto de boleta reemplazada',
  'results.download': 'Descarga de resultados',
  'audit.export': 'Exportación de auditoría',
};

export const auditActionLabel = (action: string) => AUDIT_ACTION_LABELS[action] ?? action;
