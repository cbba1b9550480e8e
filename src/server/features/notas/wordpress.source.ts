import type { FastifyBaseLogger } from 'fastify';
import { fetchAllWordpressNotas, type WordpressNota } from './wordpress.client';

export interface WordpressSourceOptions {
  url: string;
  log: FastifyBaseLogger;
  /** A copy younger than this is served without asking WordPress. */
  freshMs?: number;
  timeoutMs?: number;
}

export interface NotasSnapshot {
  posts: WordpressNota[];
  /** True when WordPress failed at the last attempt and this is the last good copy (or nothing). */
  stale: boolean;
  available: boolean;
}

/**
 * WordPress behind a cache: fresh for a minute, then served stale while one refresh runs in the
 * background. When WordPress is slow or down, the last good copy keeps being served and the log says why.
 */
export function createWordpressSource({ url, log, freshMs = 60_000, timeoutMs = 5_000 }: WordpressSourceOptions) {
  let copy: { posts: WordpressNota[]; at: number } | undefined;
  let lastFailed = false;
  let inFlight: Promise<void> | undefined;

  function refresh(): Promise<void> {
    inFlight ??= fetchAllWordpressNotas(url, timeoutMs)
      .then((posts) => {
        copy = { posts, at: Date.now() };
        if (lastFailed) log.info({ posts: posts.length }, 'WordPress answers again');
        lastFailed = false;
      })
      .catch((error: unknown) => {
        lastFailed = true;
        log.warn({ err: error }, `notas from WordPress unavailable: ${(error as Error).message}`);
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
    /** Waits for a refresh in progress (tests). */
    async settled(): Promise<void> {
      await inFlight;
    },
  };
}
export type WordpressSource = ReturnType<typeof createWordpressSource>;
