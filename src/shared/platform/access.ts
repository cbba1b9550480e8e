import { emailFieldSchema } from './email';
import { z } from './zod-spanish';

/**
 * Back-office sections. Admins use all of them; the e-mails on the Agenda list only 'agenda' and those
 * on the Notas list only 'notas' (spec section 6). The server enforces the same rule on every call.
 */
export const ADMIN_SECTIONS = [
  'personas',
  'departamentos',
  'candidatos',
  'agenda',
  'notas',
  'registros',
  'ajustes',
  'auditoria',
  'jornada',
  'mensajes',
] as const;
export const adminSectionSchema = z.enum(ADMIN_SECTIONS);
export type AdminSection = z.infer<typeof adminSectionSchema>;
/** The staff pages whose allow-lists also open their own back-office section. */
export const LIST_ADMIN_SECTIONS = ['agenda', 'notas'] as const satisfies readonly AdminSection[];
/** The back office's entry in the menu. */
/** The photo review queue's menu entry (decision 134): admins and the reviewers they named. */
export const REVIEW_MENU_ENTRY = { title: 'Revisión', path: '/revision' } as const;

export const ADMIN_MENU_ENTRY = { title: 'Administración', path: '/admin' } as const;

/** A department's slug as people and forms send it. */
export const departmentSlugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9-]+$/, 'El departamento no es válido.');

export const departmentKindSchema = z.enum(['page', 'municipality']);

export const departmentSchema = z.object({
  slug: z.string(),
  title: z.string(),
  kind: departmentKindSchema,
  /** The client route: /resultados, /notas, /agenda or /validation/{slug}. */
  path: z.string(),
});
export type Department = z.infer<typeof departmentSchema>;

/** `/:slug` of a department. */
export const departmentParamsSchema = z.object({ slug: departmentSlugSchema });

/** A department with its allow-list, as admins manage it. */
export const departmentAccessSchema = departmentSchema.extend({ emails: z.array(z.string()) });
export type DepartmentAccess = z.infer<typeof departmentAccessSchema>;

export const departmentAccessListSchema = z.object({ departments: z.array(departmentAccessSchema) });

export const accessMemberBodySchema = z.object({ email: emailFieldSchema });

export const accessMemberParamsSchema = departmentParamsSchema.extend({
  email: z.string().min(1).max(320),
});
