import { z } from 'zod';
import { NOTAS_PAGE_SIZE } from '#shared/platform/constants';

export const notaSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  contentHtml: z.string(),
  publishedAt: z.string(),
  /** Featured image (WordPress source), absolute URL. */
  imageUrl: z.string().nullable().optional(),
  imageAlt: z.string().optional(),
});
export type Nota = z.infer<typeof notaSchema>;

export const notasQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(NOTAS_PAGE_SIZE),
});
export type NotasQuery = z.infer<typeof notasQuerySchema>;

export const notasPageSchema = z.object({
  items: z.array(notaSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  /** Set when the list is an older copy because the notas source does not answer. */
  notice: z.string().optional(),
});
export type NotasPage = z.infer<typeof notasPageSchema>;

export const notasMessages = {
  staleCopy: 'Mostrando la última copia guardada: la fuente de notas no responde en este momento.',
  unavailable: 'No pudimos cargar las notas en este momento. Intenta de nuevo en unos minutos.',
} as const;
