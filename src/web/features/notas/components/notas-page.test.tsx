import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type NotasPage as NotasPageBody, notasMessages } from '#shared/features/notas/notas';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { NOTAS_LOADING_POLL_MS } from '../api/get-notas';
import { NotasPage } from './notas-page';

function page(n: number, totalPages: number): NotasPageBody {
  return {
    items: [{ id: n, title: `Nota ${n}`, contentHtml: `<p>Contenido ${n}</p>`, publishedAt: '2026-11-22T12:00:00Z' }],
    page: n,
    pageSize: 1,
    total: totalPages,
    totalPages,
    state: 'ready',
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('NotasPage', () => {
  it('keeps each nota behind a Ver más... disclosure that opens and closes without the app', async () => {
    server.use(http.get('*/api/notas', () => HttpResponse.json(page(1, 1))));
    const user = userEvent.setup();
    renderWithProviders(<NotasPage />);
    const content = await screen.findByText('Contenido 1');
    const disclosure = content.closest('details');
    expect(disclosure).not.toBeNull();
    expect(disclosure).not.toHaveAttribute('open');
    const summary = within(disclosure!).getByText('Ver más...').closest('summary')!;
    // The label for the open state is there too; CSS shows one or the other (the page works without JS).
    expect(within(summary).getByText('Ver menos')).toBeInTheDocument();
    await user.click(summary);
    expect(disclosure).toHaveAttribute('open');
    await user.click(summary);
    expect(disclosure).not.toHaveAttribute('open');
  });

  it('loads the next pages until there are no more', async () => {
    server.use(
      http.get('*/api/notas', ({ request }) => {
        const n = Number(new URL(request.url).searchParams.get('page'));
        return HttpResponse.json(page(n, 3));
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<NotasPage />);
    expect(await screen.findByText('Nota 1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cargar más notas' }));
    expect(await screen.findByText('Nota 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cargar más notas' }));
    expect(await screen.findByText('Nota 3')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cargar más notas' })).not.toBeInTheDocument();
  });

  it('shows the featured image and, discreetly, when the list is an older copy', async () => {
    server.use(
      http.get('*/api/notas', () =>
        HttpResponse.json({
          ...page(1, 1),
          items: [{ ...page(1, 1).items[0], imageUrl: 'https://wp.example/a.jpg', imageAlt: 'Portada' }],
          state: 'stale',
          notice: 'Mostrando la última copia guardada: la fuente de notas no responde en este momento.',
        }),
      ),
    );
    renderWithProviders(<NotasPage />);
    expect(await screen.findByRole('img', { name: 'Portada' })).toHaveAttribute('src', 'https://wp.example/a.jpg');
    expect(screen.getByRole('status')).toHaveTextContent('Mostrando la última copia guardada');
  });

  it('says when there are no notas', async () => {
    server.use(
      http.get('*/api/notas', () =>
        HttpResponse.json({ items: [], page: 1, pageSize: 10, total: 0, totalPages: 1, state: 'ready' }),
      ),
    );
    renderWithProviders(<NotasPage />);
    expect(await screen.findByText('Todavía no hay notas publicadas.')).toBeInTheDocument();
  });

  it('says the notas are on their way while the server has no copy yet, and shows them when they arrive', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers: NotasPageBody[] = [
      { items: [], page: 1, pageSize: 10, total: 0, totalPages: 1, state: 'loading', notice: notasMessages.loading },
      page(1, 1),
    ];
    let asked = 0;
    server.use(http.get('*/api/notas', () => HttpResponse.json(answers[Math.min(asked++, answers.length - 1)])));
    renderWithProviders(<NotasPage />);
    expect(
      await screen.findByText(
        'Las notas todavía no están disponibles: se están cargando y aparecerán aquí en cuanto lleguen.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(screen.queryByText('Todavía no hay notas publicadas.')).not.toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(NOTAS_LOADING_POLL_MS);
    expect(await screen.findByText('Nota 1')).toBeInTheDocument();
    expect(screen.queryByText(/Las notas todavía no están disponibles/)).not.toBeInTheDocument();
    expect(asked).toBe(2);
  });

  it('stops asking once the list is complete', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let asked = 0;
    server.use(
      http.get('*/api/notas', () => {
        asked++;
        return HttpResponse.json(page(1, 1));
      }),
    );
    renderWithProviders(<NotasPage />);
    expect(await screen.findByText('Nota 1')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(NOTAS_LOADING_POLL_MS * 3);
    expect(asked).toBe(1);
  });
});
