import { registerSW } from 'virtual:pwa-register';
import { reloadOnStaleChunks } from './stale-chunks';

/** How often an open app asks the server whether a new version is out (the browser also asks on each visit). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

let started = false;

/**
 * Registers the service worker once (docs/decisions/025). When a new version has been downloaded and
 * waits, `onNeedRefresh` receives the function that switches to it (the page reloads). Until then every
 * page keeps the files of its own version; once one tab switches, the others reload too, and a lazy
 * chunk the server no longer has reloads the page (stale-chunks.ts): old and new files are never mixed.
 */
export function startServiceWorker(onNeedRefresh: (apply: () => void) => void): void {
  if (started || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  started = true;
  const hadController = navigator.serviceWorker.controller !== null;
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => onNeedRefresh(() => void update(true)),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    },
    onRegisterError: (error) => console.error('service worker', error),
  });
  if (hadController) {
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload());
  }
  reloadOnStaleChunks(window);
}
