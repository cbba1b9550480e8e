import type { FastifyBaseLogger } from 'fastify';
import type { WordpressNotasConfig } from '#server/platform/config/config';
import { fetchAllWordpressNotas, type WordpressApiForm, type WordpressNota } from './wordpress.client';

export interface WordpressSourceOptions {
  config: WordpressNotasConfig;
  log: FastifyBaseLogger;
  /** A copy younger than this is served without asking WordPress. */
  freshMs?: number;
}

export interface NotasSnapshot {
  posts: WordpressNota[];
  /** True when WordPress failed at the last attempt and this is the last good copy (or nothing). */
  stale: boolean;
  available: boolean;
}

/** Image origins beyond this many are not added to the CSP (a header has to stay small). */
const MAX_IMAGE_ORIGINS = 40;

/**
 * WordPress behind a cache: fresh for a minute, then served stale while one refresh runs in the
 * background. When WordPress is slow or down, the last good copy keeps being served and the log says why.
 */
export function createWordpressSource({ config, log, freshMs = 60_000 }: WordpressSourceOptions) {
  let copy: { posts: WordpressNota[]; imageOrigins: string[]; at: number } | undefined;
  let api: WordpressApiForm | undefined;
  let lastFailed = false;
  let inFlight: Promise<void> | undefined;
  const closing = new AbortController();
  const configuredOrigins = [...new Set([new URL(config.url).origin, ...config.imageOrigins])];

  function refresh(): Promise<void> {
    inFlight ??= fetchAllWordpressNotas({
      baseUrl: config.url,
      pageSize: config.pageSize,
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      api,
      signal: closing.signal,
    })
      .then((read) => {
        const extra = read.imageOrigins.filter((o) => !configuredOrigins.includes(o));
        if (extra.length > MAX_IMAGE_ORIGINS) {
          log.warn(
            { left: extra.slice(MAX_IMAGE_ORIGINS) },
            'notas from WordPress use images from too many sites: list the ones to keep in WORDPRESS_IMAGE_ORIGINS',
          );
        }
        for (const warning of read.warnings) log.warn(`notas from WordPress: ${warning}`);
        copy = { posts: read.posts, imageOrigins: extra.slice(0, MAX_IMAGE_ORIGINS), at: Date.now() };
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

  return {
    async snapshot(): Promise<NotasSnapshot> {
      if (!copy) await refresh();
      else if (Date.now() - copy.at >= freshMs) void refresh();
      return { posts: copy?.posts ?? [], stale: lastFailed, available: copy !== undefined };
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
      return copy ? [...configuredOrigins, ...copy.imageOrigins] : configuredOrigins;
    },
    /** Waits for a refresh in progress (tests). */
    async settled(): Promise<void> {
      await inFlight;
    },
    /** Stops a read in progress (the server is closing). */
    async close(): Promise<void> {
      closing.abort(new Error('el servidor se está cerrando'));
      await inFlight;
    },
  };
}
export type WordpressSource = ReturnType<typeof createWordpressSource>;
