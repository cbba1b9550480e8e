import type { FastifyInstance } from 'fastify';
import { createAgendaTodayReader } from '#server/features/agenda/agenda.today';
import type { PublishedNotasReader } from '#server/features/notas/notas.public';
import { createSiteInfoReader } from '#server/features/settings/site-info';
import { type PageAnswers, registerRenderedPages } from '#server/platform/http/rendered-pages';
import { PUBLIC_PAGES, type PublicDataName, type PublicPagePath } from '#shared/platform/public-pages';

/**
 * `/`, `/agenda` and `/notas` answered already rendered, holding the same answers as GET /api/site,
 * GET /api/agenda/today and GET /api/notas (read through the same readers and short caches).
 */
export async function registerPublicPages(app: FastifyInstance, readNotas: PublishedNotasReader): Promise<void> {
  const readSite = createSiteInfoReader(app.db.kysely, app.config.now);
  const readAgendaToday = createAgendaTodayReader(app.db.kysely, app.config.now);

  const pages: Partial<Record<PublicPagePath, () => Promise<PageAnswers>>> = {};
  for (const [pagePath, holds] of Object.entries(PUBLIC_PAGES) as [
    PublicPagePath,
    (typeof PUBLIC_PAGES)[PublicPagePath],
  ][]) {
    pages[pagePath] = async () => {
      const [site, agendaToday, notas] = await Promise.all([
        readSite(),
        holds.agendaToday ? readAgendaToday() : undefined,
        holds.notasPageSize ? readNotas(1, holds.notasPageSize) : undefined,
      ]);
      const answers: Partial<Record<PublicDataName, string>> = { site };
      if (agendaToday !== undefined) answers.agendaToday = agendaToday;
      if (notas !== undefined) answers.notas = notas;
      return answers as PageAnswers;
    };
  }
  await registerRenderedPages(app, {
    webRoot: app.config.webRoot,
    rendererModule: app.config.rendererModule,
    pages,
  });
}
