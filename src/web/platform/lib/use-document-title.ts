import { useEffect, useSyncExternalStore } from 'react';

// The campaign's name ends every title ('Agenda · Comando Zulia'); the layout sets it once the site
// information arrives. Until then, the product's name.
let siteName = 'Comando';
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** Called by the layout with the campaign's name. */
export function setSiteName(name: string): void {
  if (!name || name === siteName) return;
  siteName = name;
  for (const listener of listeners) listener();
}

/**
 * The tab's title: 'Página · Campaña', or the campaign's name alone for ''. One component per screen
 * calls it (React runs a parent's effect after its children's: two would fight).
 */
export function useDocumentTitle(title: string): void {
  const site = useSyncExternalStore(subscribe, () => siteName);
  useEffect(() => {
    document.title = title ? `${title} · ${site}` : site;
  }, [title, site]);
}
