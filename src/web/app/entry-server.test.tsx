import { act, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#web/platform/provider';
import { server } from '#web/testing/msw-server';
import { App } from './app';
import { render } from './entry-server';
import { type PublicPageData, readPublicData } from './public/page-data';
import { seedQueryCache } from './public-data';

const DATA: PublicPageData = {
  site: { campaignName: 'Comando Zulia', leaderName: 'Gabriela Urdaneta', today: '2026-11-22' },
  agendaToday: {
    date: '2026-11-22',
    leaderName: 'Gabriela Urdaneta',
    events: [
      { id: 1, fecha: '2026-11-22', hora24h: '14:05', descripcion: 'Mitin', lugar: 'Plaza' },
      { id: 2, fecha: '2026-11-22', hora24h: '25:99', descripcion: null, lugar: ' ' },
    ],
  },
  notas: {
    items: [{ id: 7, title: 'Primera nota', contentHtml: '<p>Contenido</p>', publishedAt: '2026-11-22T12:00:00Z' }],
    page: 1,
    pageSize: 3,
    total: 1,
    totalPages: 1,
    state: 'ready',
  },
};

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('a public page rendered on the server', () => {
  it('shows the spec texts: the Spanish day title, 12-hour times, fallbacks, the copy button', () => {
    const { html, title } = render('/agenda', DATA);
    expect(title).toBe('Agenda · Comando Zulia');
    expect(html).toContain('DOMINGO, 22 NOV');
    expect(html).toContain('2:05 PM');
    expect(html).toContain('Hora no disponible');
    expect(html).toContain('Descripción no disponible');
    expect(html).toContain('Lugar no disponible');
    expect(html).toContain('Copiar agenda');
  });

  it.each(['/', '/agenda', '/notas'] as const)(
    'is taken over at %s without a request for what it holds, a hydration error or a change',
    async (path) => {
      // React reports a mismatch it recovered from (by rendering anew) to onRecoverableError, and warns
      // about the rest on console.error (development build).
      const errors = vi.spyOn(console, 'error');
      const recovered: unknown[] = [];
      const asked: string[] = [];
      server.events.on('request:start', ({ request }) => asked.push(new URL(request.url).pathname));
      server.use(
        http.get('*/api/auth/session', () => HttpResponse.json({ user: null, menu: [], home: null, logoutRoute: '/' })),
      );
      const data = path === '/notas' ? { ...DATA, notas: { ...DATA.notas!, pageSize: 10 } } : DATA;
      const { html } = render(path, data);
      document.body.innerHTML = `<div id="root">${html}</div><script type="application/json" id="datos-de-la-pagina">${JSON.stringify(data).replaceAll('<', '\\u003c')}</script>`;
      window.history.replaceState(null, '', path);
      const container = document.getElementById('root')!;
      const served = container.querySelector('main')!.outerHTML;

      delete document.documentElement.dataset.app;
      const queryClient = createQueryClient();
      const carried = readPublicData(document);
      expect(carried).toEqual(data);
      seedQueryCache(queryClient, carried!);
      await act(async () => {
        root = hydrateRoot(
          container,
          <StrictMode>
            <App queryClient={queryClient} />
          </StrictMode>,
          { onRecoverableError: (error) => recovered.push(error) },
        );
      });
      await waitFor(() => expect(asked).toContain('/api/auth/session'));
      expect(asked).toEqual(['/api/auth/session']);
      expect(container.querySelector('main')!.outerHTML).toBe(served);
      // The page says the app has taken it over (what the end-to-end tests wait for before a tap).
      expect(document.documentElement.dataset.app).toBe('ready');
      expect(recovered).toEqual([]);
      expect(errors).not.toHaveBeenCalled();
      server.events.removeAllListeners();
    },
  );
});
