import { z } from 'zod';
import { sanitizeNotaHtml, sanitizeNotaTitle } from './notas.sanitize';

/** What we keep of a WordPress post: already sanitised, ready to serve. */
export interface WordpressNota {
  id: number;
  title: string;
  contentHtml: string;
  publishedAt: string;
  imageUrl: string | null;
  imageAlt: string;
}

// The parts of the documented /wp/v2/posts answer we use; anything else is ignored.
const postSchema = z.object({
  id: z.number().int(),
  date_gmt: z.string().optional(),
  date: z.string().optional(),
  title: z.object({ rendered: z.string() }),
  content: z.object({ rendered: z.string() }),
  _embedded: z
    .object({
      'wp:featuredmedia': z
        .array(z.object({ source_url: z.string().optional(), alt_text: z.string().optional() }).loose())
        .optional(),
    })
    .loose()
    .optional(),
});

export class WordpressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WordpressError';
  }
}

const PER_PAGE = 100;
const MAX_PAGES = 100;

function toIso(post: z.infer<typeof postSchema>): string {
  // date_gmt has no zone suffix in WordPress' answer; it is UTC.
  const raw = post.date_gmt ?? post.date;
  const parsed = raw ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`) : Number.NaN;
  return Number.isNaN(parsed) ? new Date(0).toISOString() : new Date(parsed).toISOString();
}

function safeImageUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Reads every published post of a WordPress site through its REST API, page by page (100 a page,
 * following X-WP-TotalPages), so nothing past the 99th post is lost.
 */
export async function fetchAllWordpressNotas(baseUrl: string, timeoutMs: number): Promise<WordpressNota[]> {
  const out: WordpressNota[] = [];
  let totalPages = 1;
  for (let page = 1; page <= totalPages && page <= MAX_PAGES; page++) {
    const url = `${baseUrl}/wp-json/wp/v2/posts?_embed=1&per_page=${PER_PAGE}&page=${page}`;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError' ? `sin respuesta en ${timeoutMs} ms` : (error as Error).message;
      throw new WordpressError(`WordPress no respondió (${url}): ${reason}`);
    }
    const text = await res.text();
    if (res.status === 400 && text.includes('rest_post_invalid_page_number')) break; // past the last page
    if (!res.ok) throw new WordpressError(`WordPress respondió ${res.status} en ${url}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new WordpressError(`WordPress devolvió un JSON inválido en ${url}`);
    }
    if (!Array.isArray(body)) throw new WordpressError(`WordPress devolvió algo que no es una lista en ${url}`);
    for (const item of body) {
      const parsed = postSchema.safeParse(item);
      if (!parsed.success) continue; // one malformed post must not hide the others
      const post = parsed.data;
      const media = post._embedded?.['wp:featuredmedia']?.[0];
      out.push({
        id: post.id,
        title: sanitizeNotaTitle(post.title.rendered) || 'Sin título',
        contentHtml: sanitizeNotaHtml(post.content.rendered),
        publishedAt: toIso(post),
        imageUrl: safeImageUrl(media?.source_url),
        imageAlt: sanitizeNotaTitle(media?.alt_text ?? ''),
      });
    }
    const header = Number(res.headers.get('x-wp-totalpages'));
    totalPages = Number.isFinite(header) && header > 0 ? header : body.length === PER_PAGE ? page + 1 : page;
  }
  return out.sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.id - a.id);
}
