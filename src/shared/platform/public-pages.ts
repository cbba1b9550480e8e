import { NOTAS_PAGE_SIZE } from './constants';

/** How many notas the home page lists: the first page of this size. */
export const HOME_NOTAS = 3;

/**
 * The public pages the server answers already rendered, and which API answers each one holds besides the
 * site's (GET /api/site, for the navbar): today's agenda (GET /api/agenda/today) and the first page of
 * notas of a size (GET /api/notas?page=1&pageSize=…). The page carries them, so the app starts without
 * asking for them again.
 */
export const PUBLIC_PAGES = {
  '/': { agendaToday: true, notasPageSize: HOME_NOTAS },
  '/agenda': { agendaToday: true, notasPageSize: undefined },
  '/notas': { agendaToday: false, notasPageSize: NOTAS_PAGE_SIZE },
} as const satisfies Record<string, { agendaToday: boolean; notasPageSize: number | undefined }>;

export type PublicPagePath = keyof typeof PUBLIC_PAGES;

/** The names the answers travel under, inside one <script type="application/json"> of this id. */
export type PublicDataName = 'site' | 'agendaToday' | 'notas';
export const PUBLIC_DATA_ELEMENT_ID = 'datos-de-la-pagina';

/** What the server rendering module (src/web/app/entry-server.tsx, built to dist-ssr/) exports. */
export interface PublicPageRenderer {
  /**
   * The page's markup (what goes inside #root), its document title, and the <template> elements its own
   * script clones (written after the root).
   */
  render(
    path: PublicPagePath,
    data: Partial<Record<PublicDataName, unknown>>,
  ): { html: string; title: string; templates: string };
}
