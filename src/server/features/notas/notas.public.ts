import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { type NotasPage, type NotasState, notasMessages, notasPageSchema } from '#shared/features/notas/notas';
import { plainTextHtml } from './html-text';
import { createNotasRepository, type NotaRow, publishedNotasAnswers } from './notas.repository';
import { type NotaHtml, NotaHtmlRefused, notaHtml } from './notas.sanitize';
import type { WordpressNota } from './wordpress.client';
import type { WordpressSource } from './wordpress.source';

/** What a page of notas says about where its list stands (nothing when it is complete and current). */
const notasNotices: Record<NotasState, string | undefined> = {
  ready: undefined,
  stale: notasMessages.staleCopy,
  loading: notasMessages.loading,
  unavailable: notasMessages.unavailable,
};

/** A stored post's HTML made safe again, or, past the sanitiser's bounds, its text alone. */
async function servedHtml(html: NotaHtml, stored: string): Promise<string> {
  try {
    return (await html.sanitize(stored)).html;
  } catch (error) {
    if (error instanceof NotaHtmlRefused) return plainTextHtml(stored);
    throw error;
  }
}

async function presentPage(
  html: NotaHtml,
  listed: { rows: NotaRow[]; total: number },
  page: number,
  pageSize: number,
): Promise<NotasPage> {
  return {
    // Sanitised again on the way out (rows written by older versions or by hand are covered too), on the
    // sanitiser's thread, which keeps its answers.
    items: await Promise.all(
      listed.rows.map(async (r) => ({
        id: r.id,
        title: r.title,
        contentHtml: await servedHtml(html, r.content_html),
        publishedAt: r.published_at,
      })),
    ),
    page,
    pageSize,
    total: listed.total,
    totalPages: Math.max(1, Math.ceil(listed.total / pageSize)),
    state: 'ready',
  };
}

/**
 * The published notas, a page at a time, checked against their schema and serialised: the body of
 * GET /api/notas and the data the rendered pages embed. From our database (kept answers the writer
 * forgets after its commit, decision 037) or from the WordPress site's copy (`wordpress`).
 */
export function createPublishedNotasReader(
  db: Kysely<Database>,
  wordpress: WordpressSource | undefined,
  html: NotaHtml = notaHtml,
) {
  const repo = createNotasRepository(db, html);
  const answers = publishedNotasAnswers(db);
  // WordPress: one copy of every post serves all pages; each page's answer is kept with that copy.
  const wordpressPages = new WeakMap<WordpressNota[], Map<string, string>>();

  /** Never waits for WordPress: the copy there is, or an empty page whose state and notice say why. */
  function fromWordpress(source: WordpressSource, page: number, pageSize: number): string {
    const snap = source.published();
    const notice = notasNotices[snap.state];
    const key = `${page}:${pageSize}:${snap.state}`;
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
        state: snap.state,
        ...(notice ? { notice } : {}),
      }),
    );
    bodies.set(key, body);
    return body;
  }

  return async (page: number, pageSize: number): Promise<string> => {
    if (wordpress) return fromWordpress(wordpress, page, pageSize);
    return answers.get(`${page}:${pageSize}`, async () =>
      JSON.stringify(
        notasPageSchema.parse(await presentPage(html, await repo.readPublished(page, pageSize), page, pageSize)),
      ),
    );
  };
}
export type PublishedNotasReader = ReturnType<typeof createPublishedNotasReader>;
