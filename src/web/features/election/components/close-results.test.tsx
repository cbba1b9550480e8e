import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CloseResults as CloseResultsData } from '#shared/features/election/election';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { CloseResults } from './close-results';

const CLOSED_AT = '2026-11-28T22:00:00.000Z';

describe('Resultados al cierre', () => {
  it('shows the close’s counts with its time, and the late arrivals apart', async () => {
    const data: CloseResultsData = {
      closedAt: CLOSED_AT,
      takenAt: CLOSED_AT,
      ballots: 1520,
      candidates: [
        { code: 'FA', name: 'Francisco Arias', votes: 1200 },
        { code: 'LC', name: 'Luis Caldera', votes: 300 },
      ],
      departments: [],
      lateArrivals: 1,
    };
    server.use(
      http.get('*/api/election', () =>
        HttpResponse.json({ phase: 'cerrada', closesAt: null, closedAt: CLOSED_AT, lateArrivals: 1 }),
      ),
      http.get('*/api/election/close-results', () => HttpResponse.json(data)),
    );
    renderWithProviders(<CloseResults />);
    const section = await screen.findByRole('region', { name: 'Resultados al cierre, 6:00 p. m.' });
    expect(section).toHaveTextContent('Francisco Arias: 1.200 · Luis Caldera: 300 · Boletas: 1.520');
    expect(section).toHaveTextContent('Llegaron después del cierre: 1');
  });

  it('shows nothing, and asks nothing more, before the close', async () => {
    let asked = false;
    server.use(
      http.get('*/api/election', () => {
        asked = true;
        return HttpResponse.json({ phase: 'en_curso', closesAt: null, closedAt: null, lateArrivals: 0 });
      }),
    );
    renderWithProviders(<CloseResults />);
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByText(/Resultados al cierre/)).toBeNull();
  });
});
