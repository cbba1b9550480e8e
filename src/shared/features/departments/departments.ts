import { departmentKindSchema, departmentParamsSchema } from '#shared/platform/access';
import { roleSchema } from '#shared/platform/session';
import { z } from '#shared/platform/zod-spanish';

export const departmentsMessages = {
  departmentNotFound: 'El departamento no existe.',
  titleRequired: 'Indica el título.',
  titleTooLong: 'El título no puede tener más de 200 caracteres.',
} as const;

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

export const updateDepartmentBodySchema = z.object({
  title: z
    .string({ error: departmentsMessages.titleRequired })
    .trim()
    .min(1, departmentsMessages.titleRequired)
    .max(200, departmentsMessages.titleTooLong),
});
export type UpdateDepartmentBody = z.input<typeof updateDepartmentBodySchema>;

export const departmentMemberParamsSchema = departmentParamsSchema.extend({ email: z.string().min(1).max(400) });

/** validated / total as a percentage; 0 without records. */
export function progressPercent(validated: number, total: number): number {
  return total > 0 ? (validated / total) * 100 : 0;
}
