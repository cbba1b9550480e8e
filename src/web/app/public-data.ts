import type { QueryClient } from '@tanstack/react-query';
import { getAgendaTodayQueryOptions } from '#web/features/agenda/api/get-agenda-today';
import { getNotasQueryOptions } from '#web/features/notas/api/get-notas';
import { getSiteInfoQueryOptions } from '#web/features/settings/api/get-site-info';
import type { PublicPageData } from './public/page-data';

/**
 * Puts the answers a rendered page carries (public/page-data.ts) in the query cache under the keys the pages ask for, as fresh answers: the pages render from
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
