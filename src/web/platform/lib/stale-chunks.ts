import { apiFetch } from './api-client';

/**
 * What to do when code of this page cannot be loaded (Vite's `vite:preloadError`, fired for every lazy
 * import that fails). Two very different causes look the same from here:
 * - a new version was deployed and the server no longer has the files of this one: reloading brings
 *   the new version, and it is the only way forward;
 * - the server cannot be reached (it restarts, the phone lost its signal): reloading would swap a
 *   working page, maybe with a form half filled, for the browser's "no connection" page.
 * So the page asks the server first, and reloads only when the server answers. Otherwise the import's
 * error goes where it always goes (a background prefetch ignores it; a screen shows its error notice).
 */
export interface StaleChunkOptions {
  /** Asks whether the server answers; the health route by default. */
  serverAnswers?: () => Promise<boolean>;
  reload?: () => void;
}

/**
 * Whether the server answers its health route now (never from a cache), within the API's timeout: a
 * request held by a dead link counts as no answer (and the next failed import may ask again).
 */
export const serverAnswersHealth = async (): Promise<boolean> => {
  try {
    await apiFetch('/api/health', { cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
};

export function reloadOnStaleChunks(target: Window, options: StaleChunkOptions = {}): () => void {
  const serverAnswers = options.serverAnswers ?? serverAnswersHealth;
  const reload = options.reload ?? (() => target.location.reload());
  let asking = false;
  const onPreloadError = () => {
    if (asking) return;
    asking = true;
    void serverAnswers().then((answers) => {
      asking = false;
      if (answers) reload();
    });
  };
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}
