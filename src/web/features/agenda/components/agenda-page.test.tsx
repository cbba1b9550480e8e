import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { AgendaToday } from '#shared/features/agenda/agenda';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { AgendaPage } from './agenda-page';

const agenda = (events: AgendaToday['events']): AgendaToday => ({
  date: '2026-11-22',
  leaderName: 'Gabriela Urdaneta',
  events,
});

describe('AgendaPage', () => {
  it('shows the Spanish day title, the leader, 12-hour times and the fallbacks', async () => {
    server.use(
      http.get('*/api/agenda/today', () =>
        HttpResponse.json(
          agenda([
            { id: 1, fecha: '2026-11-22', hora24h: '14:05', descripcion: 'Mitin', lugar: 'Plaza' },
            { id: 2, fecha: '2026-11-22', hora24h: '25:99', descripcion: null, lugar: '  ' },
          ]),
        ),
      ),
    );
    renderWithProviders(<AgendaPage />);
    expect(await screen.findByText('DOMINGO, 22 NOV')).toBeInTheDocument();
    expect(screen.getByText('Gabriela Urdaneta')).toBeInTheDocument();
    expect(screen.getByText('2:05 PM')).toBeInTheDocument();
    expect(screen.getByText('Hora no disponible')).toBeInTheDocument();
    expect(screen.getByText('Descripción no disponible')).toBeInTheDocument();
    expect(screen.getByText('Lugar no disponible')).toBeInTheDocument();
  });

  it('has no copy button when there are no events', async () => {
    server.use(http.get('*/api/agenda/today', () => HttpResponse.json(agenda([]))));
    renderWithProviders(<AgendaPage />);
    expect(await screen.findByText('No hay eventos en la agenda de hoy.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copiar agenda' })).not.toBeInTheDocument();
  });

  it('copies a plain-text agenda and says so; says so too when copying fails', async () => {
    server.use(
      http.get('*/api/agenda/today', () =>
        HttpResponse.json(
          agenda([{ id: 1, fecha: '2026-11-22', hora24h: '09:00', descripcion: 'Caminata', lugar: 'Centro' }]),
        ),
      ),
    );
    const user = userEvent.setup();
    // After userEvent.setup(), which installs its own clipboard.
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<AgendaPage />);
    await user.click(await screen.findByRole('button', { name: 'Copiar agenda' }));
    expect(await screen.findByText('Agenda copiada con éxito')).toBeInTheDocument();
    expect(writeText.mock.calls[0]?.[0]).toBe(
      '*AGENDA DOMINGO, 22 NOV*\n*Gabriela Urdaneta*\n\n🕒 *9:00 AM*\nCaminata\n📍 Centro',
    );
    await user.click(screen.getByRole('button', { name: 'Copiar agenda' }));
    expect(await screen.findByText('Error al copiar agenda')).toBeInTheDocument();
  });

  it('shows the server error with a way to retry', async () => {
    server.use(
      http.get('*/api/agenda/today', () =>
        HttpResponse.json({ statusCode: 503, error: 'x', message: 'La base de datos no responde.' }, { status: 503 }),
      ),
    );
    renderWithProviders(<AgendaPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('La base de datos no responde.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reintentar' })).toBeInTheDocument());
  });
});
