import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { createSerializedCache } from '#server/platform/cache/serialized-cache';
import type { Config } from '#server/platform/config/config';
import type { Database } from '#server/platform/db/schema';
import { type NotasPage, notasMessages, notasPageSchema } from '#shared/features/notas/notas';
import { createNotasRepository, type NotaRow } from './notas.repository';
import { sanitizeNotaHtmlCached } from './notas.sanitize';
import type { WordpressNota } from './wordpress.client';
import { createWordpressSource } from './wordpress.source';

function presentPage(listed: { rows: NotaRow[]; total: number }, page: number, pageSize: number): NotasPage {
  return {
    // Sanitised again on the way out: rows written by older versions or by hand are covered too.
    items: listed.rows.map((r) => ({
      id: r.id,
      title: r.title,
      contentHtml: sanitizeNotaHtmlCached(r.content_html),
      publishedAt: r.published_at,
    })),
    page,
    pageSize,
    total: listed.total,
    totalPages: Math.max(1, Math.ceil(listed.total / pageSize)),
  };
}

// One serialised copy per cached listing, shared by the API answer and the pages that embed it.
const serializeListing = createSerializedCache<{ rows: NotaRow[]; total: number }, typeof notasPageSchema>(
  notasPageSchema,
);

/**
 * The published notas, a page at a time, checked against their schema and serialised: the body of
 * GET /api/notas. From our database (as fresh as the repository's short cache: a change made through this
 * process shows at once) or from the WordPress site's copy. One per app: the WordPress copy is shared.
 */
export function createPublishedNotasReader(config: Config, db: Kysely<Database>, log: FastifyBaseLogger) {
  const repo = createNotasRepository(db);
  const wordpress =
    config.notas.source === 'wordpress' ? createWordpressSource({ url: config.notas.url, log }) : undefined;
  // WordPress: one copy of every post serves all pages; each page's answer is kept with that copy.
  const wordpressPages = new WeakMap<WordpressNota[], Map<string, string>>();

  async function fromWordpress(page: number, pageSize: number): Promise<string> {
    const snap = await wordpress!.snapshot();
    const notice = !snap.available ? notasMessages.unavailable : snap.stale ? notasMessages.staleCopy : undefined;
    const key = `${page}:${pageSize}:${notice ?? ''}`;
    let bodies = wordpressPages.get(snap.posts);
    if (!bodies || bodies.size >= 200) {
      bodies = new Map();
      wordpressPages.set(snap.posts, bodies);
    }
    const hit = bodies.get(key);
    if (hit !== undefined) return hit;
    const total = snap.posts.length;
    const body = JSON.stringify(
      notasPageSchema.parse({
        items: snap.posts.slice((page - 1) * pageSize, page * pageSize),
        page,
        pageSize,
        total,
        totalPages: Math.max(1, Math.ceil(total / pageSize)),
        ...(notice ? { notice } : {}),
      }),
    );
    bodies.set(key, body);
    return body;
  }

  return async (page: number, pageSize: number): Promise<string> => {
    if (wordpress) return fromWordpress(page, pageSize);
    const listed = await repo.listPublished(page, pageSize);
    return serializeListing(listed, `${page}:${pageSize}`, () => presentPage(listed, page, pageSize));
  };
}
export type PublishedNotasReader = ReturnType<typeof createPublishedNotasReader>;
