import { createContext, useContext, useEffect } from 'react';

/** 'Agenda · Comando'; the home page is plain 'Comando'. */
export function documentTitle(title: string): string {
  return title ? `${title} · Comando` : 'Comando';
}

/** Server rendering only: where the page's title is left while it renders (effects never run there). */
export const DocumentTitleSink = createContext<{ title?: string } | null>(null);

export function useDocumentTitle(title: string): void {
  const sink = useContext(DocumentTitleSink);
  if (sink) sink.title = documentTitle(title);
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
