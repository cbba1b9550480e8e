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
  /**
   * Where the list stands: `ready` (complete and current), `stale` (an older copy: the notas source does
   * not answer), `loading` (no copy yet, being read: ask again soon) or `unavailable` (no copy, the source
   * does not answer). Only notas read from WordPress are ever anything but `ready`.
   */
  state: z.enum(['ready', 'stale', 'loading', 'unavailable']),
  /** What to tell the reader when the list is not `ready`. */
  notice: z.string().optional(),
});
export type NotasPage = z.infer<typeof notasPageSchema>;

export type NotasState = NotasPage['state'];

export const notasMessages = {
  loading: 'Las notas todavía no están disponibles: se están cargando y aparecerán aquí en cuanto lleguen.',
  staleCopy: 'Mostrando la última copia guardada: la fuente de notas no responde en este momento.',
  unavailable: 'No pudimos cargar las notas en este momento. Intenta de nuevo en unos minutos.',
} as const;
