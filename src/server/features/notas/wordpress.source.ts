import type { FastifyBaseLogger } from 'fastify';
import type { WordpressNotasConfig } from '#server/platform/config/config';
import { plainTextHtml } from './html-text';
import { imageOriginsOf, type NotaHtml, NotaHtmlRefused, notaHtml } from './notas.sanitize';
import {
  fetchAllWordpressPosts,
  type WordpressApiForm,
  type WordpressNota,
  type WordpressPost,
} from './wordpress.client';

export interface WordpressSourceOptions {
  config: WordpressNotasConfig;
  log: FastifyBaseLogger;
  /** The sanitiser every post goes through, once per copy. */
  html?: NotaHtml;
  /** A copy younger than this is served without asking WordPress. */
  freshMs?: number;
}

/** The last read of the site, as read: its posts' HTML not yet sanitised. */
export interface NotasSnapshot {
  posts: WordpressPost[];
  /** True when WordPress failed at the last attempt and this is the last good copy (or nothing). */
  stale: boolean;
  available: boolean;
}

/**
 * Where the served posts stand: `ready` (the current copy), `stale` (the last good copy: the last read
 * failed), `loading` (no copy yet, a read is under way) or `unavailable` (no copy, the last read failed).
 */
export type WordpressNotasState = 'ready' | 'stale' | 'loading' | 'unavailable';

/** What is served: the posts of the last copy that has been sanitised. */
export interface PublishedWordpressNotas {
  posts: WordpressNota[];
  state: WordpressNotasState;
}

interface Copy {
  posts: WordpressPost[];
  at: number;
  /** Counts the copies, so an older one sanitised late does not replace a newer one. */
  number: number;
}

/** The posts while there is no copy: one array, so the answers kept for it are found again. */
const NO_POSTS: WordpressNota[] = [];

/** Image origins beyond this many are not added to the CSP (a header has to stay small). */
const MAX_IMAGE_ORIGINS = 40;

/**
 * WordPress behind a cache: fresh for a minute, then served stale while one refresh runs in the
 * background. When WordPress is slow or down, the last good copy keeps being served and the log says why.
 * Each copy's HTML is sanitised once, after it is read, on the sanitiser's thread; until a new copy is
 * sanitised, the one before it is served.
 */
export function createWordpressSource({ config, log, html = notaHtml, freshMs = 60_000 }: WordpressSourceOptions) {
  let copy: Copy | undefined;
  let copies = 0;
  let served: { number: number; posts: WordpressNota[]; imageOrigins: string[] } | undefined;
  let sanitizing: { number: number; done: Promise<void> } | undefined;
  let api: WordpressApiForm | undefined;
  let lastFailed = false;
  let inFlight: Promise<void> | undefined;
  const closing = new AbortController();
  const configuredOrigins = [...new Set([new URL(config.url).origin, ...config.imageOrigins])];

  /** A post's HTML made safe; past the sanitiser's bounds, its text alone (and the log names it). */
  async function safeHtml(id: number, renderedHtml: string): Promise<string> {
    try {
      return (await html.sanitize(renderedHtml)).html;
    } catch (error) {
      if (!(error instanceof NotaHtmlRefused)) throw error;
      log.warn({ post: id, reason: error.reason }, 'WordPress post too complex to sanitise: shown as its text');
      return plainTextHtml(renderedHtml);
    }
  }

  async function sanitizeCopy(from: Copy): Promise<void> {
    const posts = await Promise.all(
      from.posts.map(async ({ renderedHtml, ...post }) => ({
        ...post,
        contentHtml: await safeHtml(post.id, renderedHtml),
      })),
    );
    const origins = new Set<string>();
    for (const nota of posts) {
      for (const origin of imageOriginsOf(nota.contentHtml)) origins.add(origin);
      if (nota.imageUrl) origins.add(new URL(nota.imageUrl).origin);
    }
    const extra = [...origins].sort().filter((o) => !configuredOrigins.includes(o));
    if (extra.length > MAX_IMAGE_ORIGINS) {
      log.warn(
        { left: extra.slice(MAX_IMAGE_ORIGINS) },
        'notas from WordPress use images from too many sites: list the ones to keep in WORDPRESS_IMAGE_ORIGINS',
      );
    }
    if (!served || served.number < from.number) {
      served = { number: from.number, posts, imageOrigins: extra.slice(0, MAX_IMAGE_ORIGINS) };
    }
  }

  /** Sanitises `from` once (a call while it is under way waits for the same work); never fails. */
  function sanitize(from: Copy): Promise<void> {
    if (served && served.number >= from.number) return Promise.resolve();
    if (sanitizing?.number === from.number) return sanitizing.done;
    const done = sanitizeCopy(from)
      .catch((error: unknown) => {
        if (closing.signal.aborted) return;
        log.error({ err: error }, `notas from WordPress could not be sanitised: ${(error as Error).message}`);
      })
      .finally(() => {
        if (sanitizing?.number === from.number) sanitizing = undefined;
      });
    sanitizing = { number: from.number, done };
    return done;
  }

  function refresh(): Promise<void> {
    inFlight ??= fetchAllWordpressPosts({
      baseUrl: config.url,
      pageSize: config.pageSize,
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      api,
      signal: closing.signal,
    })
      .then((read) => {
        for (const warning of read.warnings) log.warn(`notas from WordPress: ${warning}`);
        copy = { posts: read.posts, at: Date.now(), number: ++copies };
        // Sanitised at once, in the background: the next visitor finds it ready.
        void sanitize(copy);
        if (read.api !== api && api !== undefined) log.info({ api: read.api }, 'WordPress REST API found elsewhere');
        api = read.api;
        if (lastFailed) log.info({ posts: read.posts.length }, 'WordPress answers again');
        lastFailed = false;
      })
      .catch((error: unknown) => {
        lastFailed = true;
        if (!closing.signal.aborted) {
          log.warn({ err: error }, `notas from WordPress unavailable: ${(error as Error).message}`);
        }
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  /** The copy as read, reading the site first when there is none yet (tests and tools; visitors never wait). */
  async function snapshot(): Promise<NotasSnapshot> {
    if (!copy) await refresh();
    else if (Date.now() - copy.at >= freshMs) void refresh();
    return { posts: copy?.posts ?? [], stale: lastFailed, available: copy !== undefined };
  }

  return {
    snapshot,
    /**
     * The posts to serve, sanitised, at once: a visitor never waits for WordPress nor for the sanitiser.
     * With no copy yet (a start while the site does not answer) it is an empty list whose state says so,
     * and a read is started, or joined, in the background; an old copy is served while a newer one is read
     * and sanitised. The pages show the new copy as soon as it is ready.
     */
    published(): PublishedWordpressNotas {
      if (!copy || Date.now() - copy.at >= freshMs) void refresh();
      if (copy) void sanitize(copy);
      if (served) return { posts: served.posts, state: lastFailed ? 'stale' : 'ready' };
      return { posts: NO_POSTS, state: lastFailed ? 'unavailable' : 'loading' };
    },
    /** Starts reading the first copy (at start-up, so the first visitor does not wait for it). */
    warmUp(): void {
      if (!copy) void refresh();
    },
    /**
     * Origins the Content-Security-Policy lets images come from: the site, the configured ones and those
     * the posts of the current copy use (a CDN, a media subdomain, www or not, http or https).
     */
    imageOrigins(): string[] {
      return served ? [...configuredOrigins, ...served.imageOrigins] : configuredOrigins;
    },
    /** Waits for a refresh in progress and its sanitising (tests). */
    async settled(): Promise<void> {
      await inFlight;
      await sanitizing?.done;
    },
    /** Stops a read in progress (the server is closing); a copy being sanitised is left to the sanitiser. */
    async close(): Promise<void> {
      closing.abort(new Error('el servidor se está cerrando'));
      await inFlight;
    },
  };
}
export type WordpressSource = ReturnType<typeof createWordpressSource>;
