import { type Kysely, sql } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { createReadCache } from '#server/platform/cache/read-cache';
import { sanitizeNotaHtml, sanitizeNotaTitle } from './notas.sanitize';

export interface NotaRow {
  id: number;
  title: string;
  content_html: string;
  published_at: string;
}

/** A post as its editors see it: drafts too. */
export interface NotaAdminRow {
  id: number;
  title: string;
  content_html: string;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

const ADMIN_COLUMNS = ['id', 'title', 'content_html', 'published_at', 'created_at', 'updated_at'] as const;

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

    /** Every post, drafts included, most recently changed first. `q` looks in the titles. */
    async listAdmin(options: {
      page: number;
      pageSize: number;
      status: 'todas' | 'borradores' | 'publicadas';
      q?: string;
    }): Promise<{ rows: NotaAdminRow[]; total: number }> {
      let query = db.selectFrom('posts');
      if (options.status === 'borradores') query = query.where('published_at', 'is', null);
      if (options.status === 'publicadas') query = query.where('published_at', 'is not', null);
      if (options.q) {
        const pattern = `%${options.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where(sql<boolean>`lower(title) like ${pattern} escape '\\'`);
      }
      const totalRow = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await query
        .select(ADMIN_COLUMNS)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(options.pageSize)
        .offset((options.page - 1) * options.pageSize)
        .execute();
      return { rows, total: Number(totalRow.total) };
    },

    async findById(id: number): Promise<NotaAdminRow | undefined> {
      return db.selectFrom('posts').select(ADMIN_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** A new post, its title and HTML sanitised before they are stored. */
    async create(post: { title: string; html: string; publishedAt: string | null }, now: Date): Promise<NotaAdminRow> {
      publishedCache.clear(db);
      const at = now.toISOString();
      return db
        .insertInto('posts')
        .values({
          title: sanitizeNotaTitle(post.title),
          content_html: sanitizeNotaHtml(post.html),
          published_at: post.publishedAt,
          created_at: at,
          updated_at: at,
        })
        .returning(ADMIN_COLUMNS)
        .executeTakeFirstOrThrow();
    },

    /** New title and HTML (sanitised here); the post stays published or draft as it was. */
    async updateContent(
      id: number,
      post: { title: string; html: string },
      now: Date,
    ): Promise<NotaAdminRow | undefined> {
      publishedCache.clear(db);
      return db
        .updateTable('posts')
        .set({
          title: sanitizeNotaTitle(post.title),
          content_html: sanitizeNotaHtml(post.html),
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .returning(ADMIN_COLUMNS)
        .executeTakeFirst();
    },

    /** Publishes (at `publishedAt`) or, with null, takes the post back to draft. */
    async setPublishedAt(id: number, publishedAt: string | null, now: Date): Promise<NotaAdminRow | undefined> {
      publishedCache.clear(db);
      return db
        .updateTable('posts')
        .set({ published_at: publishedAt, updated_at: now.toISOString() })
        .where('id', '=', id)
        .returning(ADMIN_COLUMNS)
        .executeTakeFirst();
    },

    async remove(id: number): Promise<NotaAdminRow | undefined> {
      publishedCache.clear(db);
      return db.deleteFrom('posts').where('id', '=', id).returning(ADMIN_COLUMNS).executeTakeFirst();
    },

    /**
     * Runs `work` in one transaction (a change and its audit row land together) and forgets the cached
     * public list once it committed, so /api/notas shows the change at once.
     */
    async transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
      publishedCache.clear(db);
      try {
        return await db.transaction().execute(work);
      } finally {
        publishedCache.clear(db);
      }
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
