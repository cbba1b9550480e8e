import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';

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

/** The campaign's name as the layout last set it ('Comando' until then): pictures to share carry it. */
export function currentSiteName(): string {
  return siteName;
}

/** 'Agenda · Comando Zulia'; the home page is the campaign's name alone. */
export function documentTitle(title: string, site: string): string {
  return title ? `${title} · ${site}` : site;
}

/**
 * Server rendering only: the campaign's name the page renders with, and where the page's title is left
 * while it renders (effects never run there).
 */
export const DocumentTitleSink = createContext<{ site: string; title?: string } | null>(null);

/**
 * The tab's title: 'Página · Campaña', or the campaign's name alone for ''. One component per screen
 * calls it (React runs a parent's effect after its children's: two would fight).
 */
export function useDocumentTitle(title: string): void {
  const sink = useContext(DocumentTitleSink);
  const site = useSyncExternalStore(
    subscribe,
    () => siteName,
    () => sink?.site ?? siteName,
  );
  if (sink) sink.title = documentTitle(title, sink.site);
  useEffect(() => {
    document.title = documentTitle(title, site);
  }, [title, site]);
}
