import { z } from 'zod';
import { sanitizeNotaTitle } from './notas.sanitize';

/** What we serve of a WordPress post: sanitised, ready to serve. */
export interface WordpressNota {
  id: number;
  title: string;
  contentHtml: string;
  publishedAt: string;
  imageUrl: string | null;
  imageAlt: string;
}

/**
 * A WordPress post as read: its title, image and date ready, its HTML as WordPress rendered it, not yet
 * sanitised (that is done off the main thread, wordpress.source.ts). Never served as it is.
 */
export interface WordpressPost extends Omit<WordpressNota, 'contentHtml'> {
  renderedHtml: string;
}

/** One complete read of the site. */
export interface WordpressCopy {
  posts: WordpressPost[];
  /** Which address form of the REST API answered (kept for the next read). */
  api: WordpressApiForm;
  /** What was left out without failing the read (featured images that could not be fetched). */
  warnings: string[];
}

/** `/wp-json/...` (pretty permalinks) or `/?rest_route=/...` (plain permalinks: no /wp-json/ there). */
export type WordpressApiForm = 'wp-json' | 'rest_route';

export interface WordpressReadOptions {
  baseUrl: string;
  /** Posts per request (WordPress allows 1–100). */
  pageSize: number;
  /** Time limit of a request's first try; each later try doubles it. */
  timeoutMs: number;
  /** Requests to WordPress at the same time. */
  concurrency: number;
  /** Tries per request when WordPress does not answer in time. */
  attempts?: number;
  /** The form that answered last time, tried first. */
  api?: WordpressApiForm;
  /** Stops the read (the server is closing). */
  signal?: AbortSignal;
}

// Only the fields we use: WordPress renders and sends far less, which is what makes a slow site readable.
const POST_FIELDS = 'id,date,date_gmt,title,content,featured_media';
const MEDIA_FIELDS = 'id,source_url,alt_text';
const MAX_PAGES = 1000;

// The parts of the documented /wp/v2/posts answer we use; anything else is ignored.
const postSchema = z.object({
  id: z.number().int(),
  date_gmt: z.string().nullish(),
  date: z.string().nullish(),
  title: z.object({ rendered: z.string() }),
  content: z.object({ rendered: z.string(), protected: z.boolean().optional() }),
  featured_media: z.number().int().optional(),
});
type Post = z.infer<typeof postSchema>;

const mediaSchema = z.object({
  id: z.number().int(),
  source_url: z.string().optional(),
  alt_text: z.string().optional(),
});

export class WordpressError extends Error {
  constructor(
    message: string,
    /** WordPress did not answer in time (worth a longer wait), as opposed to answering an error. */
    public readonly timedOut = false,
  ) {
    super(message);
    this.name = 'WordpressError';
  }
}

function toIso(post: Post): string {
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

function restUrl(baseUrl: string, form: WordpressApiForm, route: string, params: URLSearchParams): string {
  if (form === 'wp-json') return `${baseUrl}/wp-json${route}?${params}`;
  return `${baseUrl}/?${new URLSearchParams([['rest_route', route], ...params])}`;
}

/** Runs `tasks` with at most `limit` at a time; the first failure stops the others from starting. */
async function inParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  let failed = false;
  async function worker() {
    while (!failed && next < tasks.length) {
      const index = next++;
      try {
        results[index] = await (tasks[index] as () => Promise<T>)();
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return results;
}

interface Answer {
  status: number;
  text: string;
  json: boolean;
  totalPages: number | null;
}

/**
 * One GET with a time limit. The limit is a plain timer (not AbortSignal.timeout) so that tests can run
 * a slow site on a fake clock.
 */
async function getOnce(url: string, timeoutMs: number, outer: AbortSignal | undefined): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new WordpressError(`sin respuesta en ${timeoutMs} ms`, true)),
    timeoutMs,
  );
  const stop = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', stop, { once: true });
  try {
    const res = await fetch(url, { signal: controller.signal, headers: { accept: 'application/json' } });
    const text = await res.text();
    const header = Number(res.headers.get('x-wp-totalpages'));
    return {
      status: res.status,
      text,
      json: /json/i.test(res.headers.get('content-type') ?? ''),
      totalPages: Number.isInteger(header) && header > 0 ? header : null,
    };
  } catch (error) {
    const reason = controller.signal.reason instanceof WordpressError ? controller.signal.reason : undefined;
    if (reason) throw new WordpressError(`WordPress no respondió (${url}): ${reason.message}`, true);
    throw new WordpressError(`WordPress no respondió (${url}): ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', stop);
  }
}

/** A GET tried again with twice the time limit when WordPress is slow, `attempts` tries in all. */
async function get(url: string, options: WordpressReadOptions): Promise<Answer> {
  const attempts = Math.max(1, options.attempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    try {
      return await getOnce(url, options.timeoutMs * 2 ** (attempt - 1), options.signal);
    } catch (error) {
      // Only failures to answer are tried again; an answer, even an error status, is final.
      if (attempt >= attempts || options.signal?.aborted) throw error;
    }
  }
}

function parseList(answer: Answer, url: string): unknown[] {
  if (answer.status < 200 || answer.status > 299)
    throw new WordpressError(`WordPress respondió ${answer.status} en ${url}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new WordpressError(`WordPress devolvió un JSON inválido en ${url}`);
  }
  if (!Array.isArray(body)) throw new WordpressError(`WordPress devolvió algo que no es una lista en ${url}`);
  return body;
}

/**
 * The first page, in the form that answered last time, else the other: a site without pretty permalinks
 * has no /wp-json/ (404, or its HTML home page) but answers `?rest_route=`.
 */
async function firstPage(options: WordpressReadOptions, params: (page: number) => URLSearchParams) {
  const preferred = options.api ?? 'wp-json';
  const forms: WordpressApiForm[] = preferred === 'wp-json' ? ['wp-json', 'rest_route'] : ['rest_route', 'wp-json'];
  let firstError: unknown;
  for (const form of forms) {
    const url = restUrl(options.baseUrl, form, '/wp/v2/posts', params(1));
    const answer = await get(url, options);
    const noApiHere = answer.status === 404 || (answer.status === 200 && !answer.json);
    if (noApiHere) {
      firstError ??= new WordpressError(`WordPress no tiene la API REST en ${url} (${answer.status})`);
      continue;
    }
    return { form, answer, url };
  }
  throw firstError;
}

/**
 * Reads every published post of a WordPress site through its REST API: the first page says how many
 * pages there are (X-WP-TotalPages); the others are read `concurrency` at a time. Only the fields we use
 * are asked for (`_fields`), and featured images come from one media request per 100 posts instead of
 * `_embed`, which makes WordPress render authors, terms and media for every post. Password-protected
 * posts are left out (WordPress sends them with an empty body). A request that does not answer in time
 * is tried again with a longer limit, so a slow site that answers still ends in a copy.
 */
export async function fetchAllWordpressPosts(options: WordpressReadOptions): Promise<WordpressCopy> {
  const perPage = Math.min(100, Math.max(1, Math.floor(options.pageSize)));
  const params = (page: number) =>
    new URLSearchParams({ _fields: POST_FIELDS, per_page: String(perPage), page: String(page) });

  const first = await firstPage(options, params);
  const pages: unknown[][] = [parseList(first.answer, first.url)];
  const totalPages = Math.min(MAX_PAGES, first.answer.totalPages ?? 1);
  const rest = Array.from({ length: totalPages - 1 }, (_, i) => async () => {
    const url = restUrl(options.baseUrl, first.form, '/wp/v2/posts', params(i + 2));
    const answer = await get(url, options);
    // A post unpublished since the first page leaves one page fewer.
    if (answer.status === 400 && answer.text.includes('rest_post_invalid_page_number')) return [];
    return parseList(answer, url);
  });
  pages.push(...(await inParallel(rest, options.concurrency)));

  const seen = new Set<number>();
  const posts: Post[] = [];
  for (const item of pages.flat()) {
    const parsed = postSchema.safeParse(item);
    if (!parsed.success) continue; // one malformed post must not hide the others
    if (parsed.data.content.protected) continue; // a password-protected post has no body to show
    if (seen.has(parsed.data.id)) continue; // a post published meanwhile shifts the pages by one
    seen.add(parsed.data.id);
    posts.push(parsed.data);
  }

  const warnings: string[] = [];
  // Featured images are a nicety: without them the notas are still all there.
  const media = await featuredMedia(options, first.form, posts).catch((error: unknown) => {
    warnings.push(`sin imágenes destacadas: ${(error as Error).message}`);
    return new Map<number, z.infer<typeof mediaSchema>>();
  });
  const out: WordpressPost[] = posts.map((post) => {
    const image = post.featured_media ? media.get(post.featured_media) : undefined;
    return {
      id: post.id,
      title: sanitizeNotaTitle(post.title.rendered) || 'Sin título',
      renderedHtml: post.content.rendered,
      publishedAt: toIso(post),
      imageUrl: safeImageUrl(image?.source_url),
      imageAlt: sanitizeNotaTitle(image?.alt_text ?? ''),
    };
  });
  out.sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.id - a.id);
  return { posts: out, api: first.form, warnings };
}

/** The featured images of `posts`, by media id: one request per 100 ids. */
async function featuredMedia(options: WordpressReadOptions, form: WordpressApiForm, posts: Post[]) {
  const ids = [...new Set(posts.map((p) => p.featured_media ?? 0).filter((id) => id > 0))];
  const chunks = Array.from({ length: Math.ceil(ids.length / 100) }, (_, i) => ids.slice(i * 100, i * 100 + 100));
  const lists = await inParallel(
    chunks.map((chunk) => async () => {
      const url = restUrl(
        options.baseUrl,
        form,
        '/wp/v2/media',
        new URLSearchParams({ include: chunk.join(','), per_page: String(chunk.length), _fields: MEDIA_FIELDS }),
      );
      return parseList(await get(url, options), url);
    }),
    options.concurrency,
  );
  const byId = new Map<number, z.infer<typeof mediaSchema>>();
  for (const item of lists.flat()) {
    const parsed = mediaSchema.safeParse(item);
    if (parsed.success) byId.set(parsed.data.id, parsed.data);
  }
  return byId;
}
