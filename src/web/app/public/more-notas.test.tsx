import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Nota, NotasPage } from '#shared/features/notas/notas';
import { NotaCard } from '#web/features/notas/components/nota-card';
import { server } from '#web/testing/msw-server';
import { wireMoreNotas } from './more-notas';
import { PublicTemplates } from './public-templates';

const nota = (id: number, image = false): Nota => ({
  id,
  title: `Nota <${id}>`,
  contentHtml: `<p>Contenido <strong>${id}</strong></p>`,
  publishedAt: `2026-11-2${id % 10}T12:00:00Z`,
  ...(image ? { imageUrl: `https://fotos.example/${id}.jpg`, imageAlt: `Foto ${id}` } : {}),
});
const page = (n: number, items: Nota[], totalPages: number): NotasPage => ({
  items,
  page: n,
  pageSize: items.length,
  total: totalPages * items.length,
  totalPages,
  state: 'ready',
});
/** A nota as React renders it on the server, once the browser has parsed it. */
function card(n: Nota): string {
  const parsed = document.createElement('template');
  parsed.innerHTML = renderToStaticMarkup(<NotaCard nota={n} />);
  return parsed.content.firstElementChild?.outerHTML ?? '';
}

/** /notas as the server sends it, as far as the button needs: the list, the button and the templates. */
function servedPage(first: NotasPage): HTMLButtonElement {
  document.body.innerHTML = `<main><div data-notas-list="">${first.items.map((n) => renderToStaticMarkup(<NotaCard nota={n} />)).join('')}</div><div><button type="button" data-action="more-notas">Cargar más notas</button></div></main>${renderToStaticMarkup(
    <StaticRouter location="/notas">
      <PublicTemplates path="/notas" />
    </StaticRouter>,
  )}`;
  return screen.getByRole('button', { name: 'Cargar más notas' });
}

const listed = () => [...document.querySelectorAll('[data-notas-list] > article')].map((a) => a.outerHTML);

afterEach(() => {
  document.body.replaceChildren();
});

describe("'Cargar más notas' without the app", () => {
  it("adds each page's notas exactly as the app draws them, and goes away after the last page", async () => {
    const pages = [page(1, [nota(1)], 3), page(2, [nota(2, true), nota(3)], 3), page(3, [nota(4, true)], 3)];
    server.use(
      http.get('*/api/notas', ({ request }) => {
        const n = Number(new URL(request.url).searchParams.get('page'));
        return HttpResponse.json(pages[n - 1]);
      }),
    );
    const button = servedPage(pages[0]!);
    wireMoreNotas(button, pages[0]!, new AbortController().signal);
    const user = userEvent.setup();

    await user.click(button);
    await waitFor(() => expect(listed()).toHaveLength(3));
    expect(listed()).toEqual([nota(1), nota(2, true), nota(3)].map(card));
    await user.click(button);
    await waitFor(() => expect(listed()).toHaveLength(4));
    expect(listed()[3]).toBe(card(nota(4, true)));
    expect(screen.queryByRole('button', { name: 'Cargar más notas' })).not.toBeInTheDocument();
  });

  it('says why in a toast when the next page does not come, and leaves the button to try again', async () => {
    server.use(
      http.get('*/api/notas', () =>
        HttpResponse.json({ message: 'Las notas no están disponibles ahora.' }, { status: 503 }),
      ),
    );
    const first = page(1, [nota(1)], 2);
    const button = servedPage(first);
    wireMoreNotas(button, first, new AbortController().signal);
    await userEvent.setup().click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('Las notas no están disponibles ahora.');
    expect(button).toBeEnabled();
    expect(button).toHaveTextContent('Cargar más notas');
    expect(listed()).toEqual([card(nota(1))]);
  });
});
