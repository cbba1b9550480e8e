import { formatCount } from '#shared/platform/format';
import { z } from '#shared/platform/zod-spanish';

/** Sentences of the notas editor, shared by the API and the screen. */
export const notasAdminMessages = {
  titleRequired: 'Escribe el título de la nota.',
  titleTooLong: 'El título no puede tener más de 200 caracteres.',
  contentRequired: 'Escribe el contenido de la nota.',
  contentTooLong: 'El contenido es demasiado largo (máximo 200.000 caracteres de HTML).',
  tooDeep: (levels: number) =>
    `La nota tiene demasiadas etiquetas anidadas (más de ${formatCount(levels)} niveles). Simplifica su formato e intenta de nuevo.`,
  tooManyElements: (elements: number) =>
    `La nota tiene demasiados elementos (más de ${formatCount(elements)}). Divídela o simplifica su formato e intenta de nuevo.`,
  tooComplex: 'La nota es demasiado compleja para procesarla. Simplifica su formato e intenta de nuevo.',
  notaNotFound: 'La nota no existe.',
  managedInWordpress:
    'Las notas de este sitio se administran en WordPress: créalas y edítalas allí. Aquí no se pueden cambiar.',
  created: 'Nota guardada como borrador.',
  createdPublished: 'Nota publicada.',
  updated: 'Cambios guardados.',
  published: 'Nota publicada.',
  unpublished: 'La nota volvió a borrador: ya no se muestra en el sitio.',
  deleted: 'Nota eliminada.',
} as const;

export const NOTA_TITLE_MAX = 200;
export const NOTA_HTML_MAX = 200_000;

export const notaStatusSchema = z.enum(['borrador', 'publicada']);
export type NotaStatus = z.infer<typeof notaStatusSchema>;

/** A nota as its editors see it: drafts included, HTML as stored (already sanitised). */
export const notaAdminSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  contentHtml: z.string(),
  status: notaStatusSchema,
  /** Set while published. */
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type NotaAdmin = z.infer<typeof notaAdminSchema>;

/** One line of the editors' list: no HTML, a short plain-text excerpt instead. */
export const notaAdminSummarySchema = notaAdminSchema.omit({ contentHtml: true }).extend({ excerpt: z.string() });
export type NotaAdminSummary = z.infer<typeof notaAdminSummarySchema>;

export const notasAdminFilterSchema = z.enum(['todas', 'borradores', 'publicadas']);
export type NotasAdminFilter = z.infer<typeof notasAdminFilterSchema>;

export const notasAdminQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
  status: notasAdminFilterSchema.default('todas'),
  /** Words of the title. */
  q: z.string().trim().max(100).optional(),
});
export type NotasAdminQuery = z.input<typeof notasAdminQuerySchema>;

export const notasAdminPageSchema = z.object({
  /** 'wordpress' when notas come from WordPress: then the list is empty and nothing can be changed here. */
  source: z.enum(['local', 'wordpress']),
  notice: z.string().optional(),
  items: z.array(notaAdminSummarySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type NotasAdminPage = z.infer<typeof notasAdminPageSchema>;

export const notaParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

const titleSchema = z
  .string({ error: notasAdminMessages.titleRequired })
  .trim()
  .min(1, notasAdminMessages.titleRequired)
  .max(NOTA_TITLE_MAX, notasAdminMessages.titleTooLong);

const htmlSchema = z
  .string({ error: notasAdminMessages.contentRequired })
  .max(NOTA_HTML_MAX, notasAdminMessages.contentTooLong);

/** Creates a nota; `publish` puts it on the public site at once, otherwise it stays a draft. */
export const notaCreateBodySchema = z.object({
  title: titleSchema,
  contentHtml: htmlSchema,
  publish: z.boolean().default(false),
});
export type NotaCreateBody = z.input<typeof notaCreateBodySchema>;

export const notaUpdateBodySchema = z.object({ title: titleSchema, contentHtml: htmlSchema });
export type NotaUpdateBody = z.input<typeof notaUpdateBodySchema>;

export const notaResultSchema = z.object({ message: z.string(), nota: notaAdminSchema });
export type NotaResult = z.infer<typeof notaResultSchema>;

export const notaDeleteResultSchema = z.object({ message: z.string() });
