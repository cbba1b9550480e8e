import type { QueryClient } from '@tanstack/react-query';
import type { AgendaToday } from '#shared/features/agenda/agenda';
import type { NotasPage } from '#shared/features/notas/notas';
import type { SiteInfo } from '#shared/features/settings/settings';
import { PUBLIC_DATA_ELEMENT_ID, type PublicDataName } from '#shared/platform/public-pages';
import { getAgendaTodayQueryOptions } from '#web/features/agenda/api/get-agenda-today';
import { getNotasQueryOptions } from '#web/features/notas/api/get-notas';
import { getSiteInfoQueryOptions } from '#web/features/settings/api/get-site-info';

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

/**
 * Puts them in the query cache under the keys the pages ask for, as fresh answers: the pages render from
 * them at once (on the server, and in the browser's first render, identical) and nothing is asked again
 * until they would be stale anyway.
 */
export function seedQueryCache(client: QueryClient, data: PublicPageData): void {
  client.setQueryData(getSiteInfoQueryOptions().queryKey, data.site);
  if (data.agendaToday) client.setQueryData(getAgendaTodayQueryOptions().queryKey, data.agendaToday);
  if (data.notas) {
    client.setQueryData(getNotasQueryOptions(data.notas.pageSize).queryKey, {
      pages: [data.notas],
      pageParams: [1],
    });
  }
}
