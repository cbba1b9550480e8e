import type { AgendaToday } from '#shared/features/agenda/agenda';
import type { NotasPage } from '#shared/features/notas/notas';
import type { SiteInfo } from '#shared/features/settings/settings';
import { PUBLIC_DATA_ELEMENT_ID, type PublicDataName } from '#shared/platform/public-pages';

/** The API answers a page rendered by the server holds (see PUBLIC_PAGES). */
export interface PublicPageData extends Partial<Record<PublicDataName, unknown>> {
  site: SiteInfo;
  agendaToday?: AgendaToday;
  notas?: NotasPage;
}

/** The answers the page came with, or undefined when it is the plain shell. */
export function readPublicData(doc: Document): PublicPageData | undefined {
  const text = doc.getElementById(PUBLIC_DATA_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PublicPageData;
  } catch {
    return undefined;
  }
}
