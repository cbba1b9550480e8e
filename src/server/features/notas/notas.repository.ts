import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { createReadCache } from '../../lib/read-cache';
import { sanitizeNotaHtml, sanitizeNotaTitle } from './notas.sanitize';

export interface NotaRow {
  id: number;
  title: string;
  content_html: string;
  published_at: string;
}

// The public list is read far more than it is written (see read-cache.ts for the trade-off).
const publishedCache = createReadCache<Kysely<Database>, { rows: NotaRow[]; total: number }>(1_000);

export function createNotasRepository(db: Kysely<Database>) {
  return {
    listPublished(page: number, pageSize: number): Promise<{ rows: NotaRow[]; total: number }> {
      return publishedCache.get(db, `${page}:${pageSize}`, () => this.readPublished(page, pageSize));
    },

    async readPublished(page: number, pageSize: number): Promise<{ rows: NotaRow[]; total: number }> {
      const totalRow = await db
        .selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('published_at', 'is not', null)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('posts')
        .select(['id', 'title', 'content_html', 'published_at'])
        .where('published_at', 'is not', null)
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      return { rows: rows as NotaRow[], total: Number(totalRow.total) };
    },

    /** Stores a post; its HTML is sanitised here so nothing unsafe is ever at rest. */
    async insert(post: { title: string; html: string; publishedAt: string | null }, now: Date): Promise<number> {
      publishedCache.clear(db);
      const at = now.toISOString();
      const row = await db
        .insertInto('posts')
        .values({
          title: sanitizeNotaTitle(post.title),
          content_html: sanitizeNotaHtml(post.html),
          published_at: post.publishedAt,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      publishedCache.clear(db);
      return row.id;
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
export type NotasRepository = ReturnType<typeof createNotasRepository>;
