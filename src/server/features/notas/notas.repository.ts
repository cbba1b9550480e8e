import { type Kysely, type Selectable, sql } from 'kysely';
import { timedAnswers } from '#server/platform/cache/cache';
import { runChange } from '#server/platform/change/change';
import type { Database, PostsTable } from '#server/platform/db/schema';
import { stripTags } from './html-text';
import {
  type NotaHtml,
  NotaHtmlRefused,
  notaExcerpt,
  notaHtml,
  type PreparedNota,
  prepareNota,
} from './notas.sanitize';

/** A published post as the public list shows it. */
const PUBLISHED_COLUMNS = [
  'id',
  'title',
  'content_html',
  'published_at',
] as const satisfies readonly (keyof PostsTable)[];
export type NotaRow = Pick<Selectable<PostsTable>, (typeof PUBLISHED_COLUMNS)[number]> & { published_at: string };

/** A post as its editors see it: drafts too. */
const ADMIN_COLUMNS = [
  'id',
  'title',
  'content_html',
  'published_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof PostsTable)[];
export type NotaAdminRow = Pick<Selectable<PostsTable>, (typeof ADMIN_COLUMNS)[number]>;

/** A line of the editors' list: no HTML, its excerpt instead (computed once for rows saved without one). */
const SUMMARY_COLUMNS = [
  'id',
  'title',
  'excerpt',
  'published_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof PostsTable)[];
type StoredNotaSummary = Pick<Selectable<PostsTable>, (typeof SUMMARY_COLUMNS)[number]>;
export type NotaSummaryRow = StoredNotaSummary & { excerpt: string };

/**
 * GET /api/notas as sent, per page: read far more than it is written (see cache.ts for the trade-off).
 * Every write runs through the platform's change helper, which forgets it after the commit (notas.service.ts).
 */
export const publishedNotasAnswers = timedAnswers<string>({ ttlMs: 1_000, maxEntries: 200 });

/**
 * The notas table. Everything it stores has been through prepareNota: sanitised off the main thread
 * (`html`: a worker thread with bounds and a time budget) before any transaction starts, so a slow post
 * never holds one.
 */
export function createNotasRepository(db: Kysely<Database>, html: NotaHtml = notaHtml) {
  return {
    async readPublished(page: number, pageSize: number): Promise<{ rows: NotaRow[]; total: number }> {
      const totalRow = await db
        .selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('published_at', 'is not', null)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('posts')
        .select(PUBLISHED_COLUMNS)
        .where('published_at', 'is not', null)
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      return { rows: rows as NotaRow[], total: Number(totalRow.total) };
    },

    /**
     * Test data, seeds and benchmarks only (no audit row: the product's changes are notas.service.ts's): a
     * post prepared, then written in a change of its own (so /api/notas shows it at once); its id.
     */
    async insert(post: { title: string; html: string; publishedAt: string | null }, now: Date): Promise<number> {
      const nota = await prepareNota(html, post);
      const row = await runChange(
        db,
        ({ trx }) => createNotasRepository(trx, html).create(nota, post.publishedAt, now),
        {
          forget: [publishedNotasAnswers],
        },
      );
      return row.id;
    },

    /** Every post, drafts included, most recently changed first. `q` looks in the titles. */
    async listAdmin(options: {
      page: number;
      pageSize: number;
      status: 'todas' | 'borradores' | 'publicadas';
      q?: string;
    }): Promise<{ rows: NotaSummaryRow[]; total: number }> {
      let query = db.selectFrom('posts');
      if (options.status === 'borradores') query = query.where('published_at', 'is', null);
      if (options.status === 'publicadas') query = query.where('published_at', 'is not', null);
      if (options.q) {
        const pattern = `%${options.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where(sql<boolean>`lower(title) like ${pattern} escape '\\'`);
      }
      const totalRow = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await query
        .select(SUMMARY_COLUMNS)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(options.pageSize)
        .offset((options.page - 1) * options.pageSize)
        .execute();
      return { rows: await this.fillExcerpts(rows), total: Number(totalRow.total) };
    },

    /** Rows saved before excerpts were kept get theirs now, once (computed off the main thread). */
    async fillExcerpts(rows: StoredNotaSummary[]): Promise<NotaSummaryRow[]> {
      const missing = rows.filter((r) => r.excerpt === null).map((r) => r.id);
      if (missing.length === 0) return rows as NotaSummaryRow[];
      const stored = await db.selectFrom('posts').select(['id', 'content_html']).where('id', 'in', missing).execute();
      const excerpts = new Map<number, string>();
      for (const post of stored) {
        let excerpt: string;
        try {
          excerpt = notaExcerpt((await html.sanitize(post.content_html)).text);
        } catch (error) {
          // Past the sanitiser's bounds: the words alone, found without parsing.
          if (!(error instanceof NotaHtmlRefused)) throw error;
          excerpt = notaExcerpt(stripTags(post.content_html));
        }
        excerpts.set(post.id, excerpt);
        await db.updateTable('posts').set({ excerpt }).where('id', '=', post.id).execute();
      }
      return rows.map((r) => ({ ...r, excerpt: r.excerpt ?? excerpts.get(r.id) ?? '' }));
    },

    async findById(id: number): Promise<NotaAdminRow | undefined> {
      return db.selectFrom('posts').select(ADMIN_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** A new post, prepared (sanitised, excerpt computed) before the transaction this may run in. */
    async create(nota: PreparedNota, publishedAt: string | null, now: Date): Promise<NotaAdminRow> {
      const at = now.toISOString();
      return db
        .insertInto('posts')
        .values({
          title: nota.title,
          content_html: nota.contentHtml,
          excerpt: nota.excerpt,
          published_at: publishedAt,
          created_at: at,
          updated_at: at,
        })
        .returning(ADMIN_COLUMNS)
        .executeTakeFirstOrThrow();
    },

    /** New title and HTML, prepared beforehand; the post stays published or draft as it was. */
    async updateContent(id: number, nota: PreparedNota, now: Date): Promise<NotaAdminRow | undefined> {
      return db
        .updateTable('posts')
        .set({
          title: nota.title,
          content_html: nota.contentHtml,
          excerpt: nota.excerpt,
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .returning(ADMIN_COLUMNS)
        .executeTakeFirst();
    },

    /** Publishes (at `publishedAt`) or, with null, takes the post back to draft. */
    async setPublishedAt(id: number, publishedAt: string | null, now: Date): Promise<NotaAdminRow | undefined> {
      return db
        .updateTable('posts')
        .set({ published_at: publishedAt, updated_at: now.toISOString() })
        .where('id', '=', id)
        .returning(ADMIN_COLUMNS)
        .executeTakeFirst();
    },

    async remove(id: number): Promise<NotaAdminRow | undefined> {
      return db.deleteFrom('posts').where('id', '=', id).returning(ADMIN_COLUMNS).executeTakeFirst();
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
