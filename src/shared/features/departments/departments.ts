import { departmentKindSchema, departmentParamsSchema } from '#shared/platform/access';
import { roleSchema } from '#shared/platform/session';
import { z } from '#shared/platform/zod-spanish';

export const departmentsMessages = {
  departmentNotFound: 'El departamento no existe.',
  titleRequired: 'Indica el título.',
  titleTooLong: 'El título no puede tener más de 200 caracteres.',
  slugRequired: 'Indica el identificador de la dirección.',
  slugShape:
    'El identificador solo lleva minúsculas sin tildes, números y guiones entre palabras, por ejemplo valmore-rodriguez.',
  slugTooLong: 'El identificador no puede tener más de 100 caracteres.',
  slugTaken: (slug: string, title: string) => `Ya existe un departamento con el identificador ${slug}: ${title}.`,
  pageUnknown: (pages: readonly string[]) =>
    `Una página solo puede ser una de las que la aplicación tiene (${pages.join(', ')}), y todas existen ya. Lo nuevo es un municipio o parroquia.`,
  created: (title: string) => `Departamento creado: ${title}.`,
} as const;

/** The staff pages the app has (their path is /{slug}): a department of kind 'page' is one of them. */
export const STAFF_PAGE_SLUGS = ['resultados', 'notas', 'agenda'] as const;

/**
 * The identifier a title suggests: 'Valmore Rodríguez' → 'valmore-rodriguez' (accents dropped, lower
 * case, words joined by hyphens). The person may change it before saving; the server checks it again.
 */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

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

const titleSchema = z
  .string({ error: departmentsMessages.titleRequired })
  .trim()
  .min(1, departmentsMessages.titleRequired)
  .max(200, departmentsMessages.titleTooLong);

export const updateDepartmentBodySchema = z.object({ title: titleSchema });
export type UpdateDepartmentBody = z.input<typeof updateDepartmentBodySchema>;

/**
 * A new department: its title, the identifier of its address (/validation/{slug}, fixed once created:
 * phones keep unsent votes under it) and its kind.
 */
export const createDepartmentBodySchema = z.object({
  title: titleSchema,
  slug: z
    .string({ error: departmentsMessages.slugRequired })
    .trim()
    .min(1, departmentsMessages.slugRequired)
    .max(100, departmentsMessages.slugTooLong)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, departmentsMessages.slugShape),
  kind: departmentKindSchema.default('municipality'),
});
export type CreateDepartmentBody = z.input<typeof createDepartmentBodySchema>;

export const departmentMemberParamsSchema = departmentParamsSchema.extend({ email: z.string().min(1).max(400) });

/** validated / total as a percentage; 0 without records. */
export function progressPercent(validated: number, total: number): number {
  return total > 0 ? (validated / total) * 100 : 0;
}
